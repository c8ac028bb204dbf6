// Scripts for the fake agent: which answer to give to which turn. Loaded from JSON (validated) or built in code.
import { readFile } from 'node:fs/promises';
import * as z from '../../persistence/zod.js';
import { UserError } from '../../core/errors.js';
import { FAILURE_KINDS, type AgentEvent, type FailureKind, type Role, type TurnKind } from '../../core/types.js';

export { DEMO_SCRIPT } from './demo-script.js';

export interface FakeAction {
  /** The answer. When missing, the default answer for the turn's kind is used. */
  text?: string;
  /** Prefixes the answer with the marker line `[APPROVED]` / `[CHANGES_REQUIRED]`. */
  verdict?: 'APPROVED' | 'CHANGES_REQUIRED';
  /** Files to write, relative to turn.cwd; only in 'workspace-write' turns. Missing = the kind's default. */
  writeFiles?: Record<string, string>;
  /** `resetInMs`: a usage limit's reset this long after the turn fails (negative: in the past), instead of `resetAt`. */
  fail?: { kind: FailureKind; message: string; resetAt?: string; resetInMs?: number };
  /** Never finishes until stop(); the stream then ends without `done`. */
  hang?: boolean;
  question?: string;
  delayMs?: number;
  /** Extra events emitted right after `session`. */
  events?: AgentEvent[];
  /** A long output stream after `events`, generated as it goes (see FakeStream). */
  stream?: FakeStream;
  /**
   * Shell commands to run after `events`, each put to agent-collab's command hook first exactly as the real CLIs
   * do; a command runs (`sh -c`, in the turn's cwd, in any access mode) only when the hook allowed it.
   */
  run?: string | string[];
}

/**
 * `lines` text events, one line each: `text` with `{n}` replaced by the line's number (0, 1, …). They arrive
 * `perChunk` at a time, one chunk per event-loop turn, as a CLI's output arrives in pipe chunks.
 */
export interface FakeStream {
  lines: number;
  perChunk?: number;
  text?: string;
}

export interface FakeRule {
  when?: { role?: Role; kind?: TurnKind; iteration?: number; step?: number; resumed?: boolean };
  /** The rule applies this many times, then is skipped. */
  times?: number;
  do: FakeAction;
}

export interface FakeScript {
  rules: FakeRule[];
  /** resume() of a session this agent does not know fails with `session_lost`. */
  loseSessions?: boolean;
}

const failureKind = z.enum(FAILURE_KINDS);

const eventSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('session'), sessionId: z.string() }),
  z.strictObject({ type: z.literal('text'), text: z.string() }),
  z.strictObject({ type: z.literal('reasoning'), text: z.string() }),
  z.strictObject({ type: z.literal('tool_call'), id: z.optional(z.string()), name: z.string(), input: z.unknown() }),
  z.strictObject({
    type: z.literal('tool_result'),
    id: z.optional(z.string()),
    output: z.string(),
    isError: z.boolean(),
  }),
  z.strictObject({
    type: z.literal('command'),
    id: z.optional(z.string()),
    command: z.string(),
    status: z.enum(['started', 'completed', 'failed']),
    exitCode: z.optional(z.nullable(z.int())),
    output: z.optional(z.string()),
  }),
  z.strictObject({ type: z.literal('file_change'), path: z.string(), kind: z.enum(['add', 'update', 'delete']) }),
  z.strictObject({ type: z.literal('question'), text: z.string() }),
  z.strictObject({
    type: z.literal('usage'),
    inputTokens: z.number(),
    outputTokens: z.number(),
    cachedTokens: z.optional(z.number()),
    costUsd: z.optional(z.number()),
    durationMs: z.optional(z.number()),
  }),
  z.strictObject({ type: z.literal('error'), kind: failureKind, message: z.string(), resetAt: z.optional(z.string()) }),
  z.strictObject({ type: z.literal('done'), sessionId: z.nullable(z.string()), text: z.string() }),
  z.strictObject({
    type: z.literal('retry'),
    attempt: z.int(),
    maxAttempts: z.nullable(z.int()),
    status: z.nullable(z.int()),
    waitSeconds: z.nullable(z.number()),
    kind: failureKind,
    message: z.string(),
  }),
]);

const nonEmpty = z.string().check(z.minLength(1));

const actionSchema = z.strictObject({
  text: z.optional(z.string()),
  verdict: z.optional(z.enum(['APPROVED', 'CHANGES_REQUIRED'])),
  writeFiles: z.optional(z.record(z.string(), z.string())),
  fail: z.optional(
    z.strictObject({
      kind: failureKind,
      message: z.string(),
      resetAt: z.optional(z.string()),
      resetInMs: z.optional(z.int()),
    }),
  ),
  hang: z.optional(z.boolean()),
  question: z.optional(z.string()),
  delayMs: z.optional(z.int().check(z.minimum(0))),
  events: z.optional(z.array(eventSchema)),
  stream: z.optional(
    z.strictObject({
      lines: z.int().check(z.minimum(0)),
      perChunk: z.optional(z.int().check(z.minimum(1))),
      text: z.optional(z.string()),
    }),
  ),
  run: z.optional(z.union([nonEmpty, z.array(nonEmpty)])),
});

const ruleSchema = z.strictObject({
  when: z.optional(
    z.strictObject({
      role: z.optional(z.enum(['planner', 'reviewer'])),
      kind: z.optional(
        z.enum([
          'refine',
          'write_plan',
          'review',
          'respond',
          'execute_step',
          'code_review',
          'code_fix',
          'ask_test_command',
        ]),
      ),
      iteration: z.optional(z.int()),
      step: z.optional(z.int()),
      resumed: z.optional(z.boolean()),
    }),
  ),
  times: z.optional(z.int().check(z.minimum(1))),
  do: actionSchema,
});

export const fakeScriptSchema = z.strictObject({ rules: z.array(ruleSchema), loseSessions: z.optional(z.boolean()) });

// Compile-time check that what the schema accepts is a FakeScript.
const _schemaMatchesType: (s: z.infer<typeof fakeScriptSchema>) => FakeScript = (s) => s;

/** A copy of `script` where every answer (scripted or default) takes `ms` milliseconds, e.g. for a watchable demo. */
export function withDelay(script: FakeScript, ms: number): FakeScript {
  return {
    ...script,
    rules: [
      ...script.rules.map((r) => ({ ...r, do: { ...r.do, delayMs: r.do.delayMs ?? ms } })),
      { do: { delayMs: ms } },
    ],
  };
}

/** Reads and validates a JSON fake script; any problem is a one-line UserError. */
export async function loadFakeScript(file: string): Promise<FakeScript> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UserError(
      code === 'ENOENT'
        ? `fake script ${file} not found`
        : `cannot read fake script ${file}: ${(err as Error).message}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    throw new UserError(`fake script ${file} is not valid JSON: ${oneLine((err as Error).message)}`);
  }
  const parsed = fakeScriptSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : '(top level)';
    throw new UserError(`fake script ${file} is invalid at ${where}: ${oneLine(issue?.message ?? 'invalid')}`);
  }
  return parsed.data;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
