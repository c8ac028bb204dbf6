import * as z from './zod.js';
import { parseSize } from './size.js';

const sizeString = z
  .string()
  .check(z.refine((s) => parseSize(s) !== null, { message: 'a size like "10MB", "512KB" or "1GB"' }));

const agentName = z.enum(['codex', 'claude', 'gemini', 'opencode', 'fake']);

/**
 * Effort levels per CLI, as measured on the pinned CLIs: claude's `--effort` takes these (it ignores any other value
 * with a warning); codex's `-c model_reasoning_effort=…` is not checked by codex itself, so agent-collab checks it.
 */
export const EFFORTS = {
  claude: ['low', 'medium', 'high', 'xhigh', 'max'],
  codex: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'],
  /** gemini 0.61 has no effort flag. */
  gemini: [],
  // opencode's `--variant` (provider-specific; these are the names its built-in providers use, 1.18.33).
  opencode: ['minimal', 'low', 'medium', 'high', 'xhigh', 'max'],
} as const;
const ALL_EFFORTS = [...new Set([...EFFORTS.codex, ...EFFORTS.claude])];

/** A model name as the CLI takes it ("" = the CLI's default): no spaces, no leading dash (it would read as a flag). */
const modelName = z._default(
  z
    .string()
    .check(
      z.refine((s) => /^$|^[A-Za-z0-9][\w.:/@[\]-]*$/.test(s), { message: 'a model name like "opus" or "gpt-5.5"' }),
    ),
  '',
);
const effort = z._default(z.enum(['', ...ALL_EFFORTS]), '');

/** A cap ≥ 0 (0 = no cap). */
function cap(max: number) {
  return z._default(z.number().check(z.minimum(0), z.maximum(max)), 0);
}

/** An integer in [min, max], `fallback` when missing. */
function intIn(min: number, max: number, fallback: number) {
  return z._default(z.int().check(z.minimum(min), z.maximum(max)), fallback);
}

/** A non-empty string, `fallback` when missing. */
function nonEmpty(fallback: string) {
  return z._default(z.string().check(z.minLength(1)), fallback);
}

/** A strict table (unknown keys are errors) whose keys all have defaults, so a missing table reads as `{}`. */
function table<T extends Record<string, z.ZodMiniDefault | z.ZodMiniPrefault>>(shape: T) {
  const object = z.strictObject(shape);
  // `{}` is a valid input since every key has a default (the constraint on T); TypeScript cannot follow that.
  return z.prefault(object, {} as z.input<typeof object>);
}

/** Wall time of one agent turn, and how long it may go without any output, in seconds. */
function roleTimeouts(wall: number, idle: number) {
  return table({
    wall_seconds: intIn(1, 86_400, wall),
    idle_seconds: intIn(1, 86_400, idle),
  });
}

/** Who plays each role, and with which model and effort. */
const rolesTable = z.strictObject({
  planner: z._default(agentName, 'codex'),
  reviewer: z._default(agentName, 'claude'),
  /** Passed with the CLI's own flag (claude `--model`, codex `-m`); empty = the CLI's default. */
  planner_model: modelName,
  reviewer_model: modelName,
  /** claude `--effort`, codex `-c model_reasoning_effort=…`; empty = the CLI's default. */
  planner_effort: effort,
  reviewer_effort: effort,
});

/** An effort the role's CLI does not take is a config error naming the key (the CLIs themselves would ignore it). */
function effortsFitTheirCli(roles: z.infer<typeof rolesTable>, ctx: z.core.$RefinementCtx<unknown>): void {
  for (const role of ['planner', 'reviewer'] as const) {
    const cli = roles[role];
    const value = roles[`${role}_effort`];
    if (value === '' || cli === 'fake' || (EFFORTS[cli] as readonly string[]).includes(value)) continue;
    ctx.addIssue({
      code: 'custom',
      path: [`${role}_effort`],
      input: value,
      message: `one ${cli} takes: ${EFFORTS[cli].map((e) => JSON.stringify(e)).join(', ')} (or "" for its default)`,
    });
  }
}

export const configSchema = z.strictObject({
  roles: z.prefault(rolesTable.check(z.superRefine(effortsFitTheirCli)), {}),
  workflow: table({
    max_iterations: intIn(1, 100, 5),
    auto_approve: z._default(z.boolean(), false),
    confirm_enter: z._default(z.boolean(), false),
  }),
  review: table({
    /** When the reviewer reads the code: the run's diff after its last step, each step's before its commit, or never. */
    code: z._default(z.enum(['final', 'each', 'off']), 'final'),
    /** Code review rounds asking for changes before the person is asked. */
    max_code_rounds: intIn(1, 100, 3),
  }),
  safety: table({
    // The person's own rules. The built-in rules of src/core/policy/builtin-rules.ts ("force push", "raw disk",
    // "discards work") apply as well, whatever these lists say, so a config with its own lists keeps them.
    blocked_commands: z._default(z.array(z.string()), ['rm -rf', 'sudo', 'chmod 777', '> /dev/']),
    require_confirm_for: z._default(z.array(z.string()), ['git push', 'npm publish']),
    max_denials_per_step: intIn(1, 100, 3),
    confirm_timeout_seconds: intIn(5, 86_400, 600),
    /** Operating-system confinement of write turns and the test command (bubblewrap); "off" only with a warning. */
    sandbox: z._default(z.enum(['on', 'off']), 'on'),
    /** A step whose commit holds a bigger file waits for the person. */
    max_file_size: z._default(sizeString, '5MB'),
    /** A step whose commit changes more files waits for the person. */
    max_files_per_step: intIn(1, 1_000_000, 200),
  }),
  paths: table({
    workdir: nonEmpty('.agent-collab'),
    plan: nonEmpty('plan.md'),
    comments: nonEmpty('comments.md'),
    log: nonEmpty('log.md'),
    debug_log: nonEmpty('debug.log'),
    debug_log_max_size: z._default(sizeString, '10MB'),
    /** All runs' artifacts together (`runs/`); the oldest runs are removed at start beyond it. */
    runs_max_size: z._default(sizeString, '200MB'),
  }),
  test: table({
    default_command: nonEmpty('auto'),
    fallback_to_agent: z._default(z.boolean(), true),
    timeout_seconds: intIn(1, 86_400, 900),
    max_retries: intIn(0, 20, 3),
  }),
  agents: table({
    codex: table({ command: nonEmpty('codex') }),
    claude: table({ command: nonEmpty('claude') }),
    gemini: table({ command: nonEmpty('gemini') }),
    opencode: table({ command: nonEmpty('opencode') }),
  }),
  timeouts: table({
    /** A CLI announcing a longer wait before its own retry (or its waits in one turn adding up to more) is stopped. */
    max_retry_wait_seconds: intIn(0, 86_400, 60),
    planner: roleTimeouts(1800, 300),
    reviewer: roleTimeouts(900, 300),
  }),
  retry: table({
    infra_retries: intIn(0, 20, 3),
    backoff_seconds: z._default(z.number().check(z.minimum(0), z.maximum(3600)), 5),
  }),
  /** Per run, every agent call counted; 0 = no cap. At the cap the run stops at the next safe point and asks. */
  budget: table({
    max_tokens: cap(1e12),
    max_cost_usd: cap(1e6),
    /** The agents' working time: the sum of the agent rounds' wall times. */
    max_minutes: cap(1e6),
  }),
  /** Usage limits (429, "usage limit reached"): wait for the reset the CLI names, or ask the person. */
  limits: table({
    /** A usage limit with a known reset time parks the run until then; the round then runs again by itself. */
    wait_for_reset: z._default(z.boolean(), false),
    /** The longest such wait, in minutes (0 = no limit): a reset further away asks the person. 360 covers a 5-hour window. */
    max_wait_minutes: intIn(0, 43_200, 360),
  }),
  /** The terminal UI. */
  tui: table({
    /** "on": the TUI reads the mouse (the wheel scrolls the tab; text is selected with Shift+drag); "scroll_keys": the
     * terminal turns the wheel into ↑/↓ and keeps its selection; "off": nothing asked (src/modes/mouse-mode.ts). */
    mouse: z._default(z.enum(['on', 'scroll_keys', 'off']), 'on'),
  }),
  fake: table({
    /** JSON script for the fake agents; empty = the built-in demo script. */
    script: z._default(z.string(), ''),
  }),
});

export type Config = z.infer<typeof configSchema>;
export type AgentName = z.infer<typeof agentName>;
