// Claude Code adapter: `claude -p --output-format stream-json --verbose` with the prompt on stdin, continued with
// `--resume <id>`.
import { NO_MODEL_CHOICE, type ModelChoice } from '../cli-agent.js';
import type { AgentEvent, AgentTurn } from '../../core/types.js';
import type { HookLaunch } from '../command-hook/endpoint.js';
import { CliAgent, type CliAgentOptions, type CliFlavor } from '../cli-agent.js';
import type { ConfinedTurn } from '../confinement/index.js';
import { claudeConfigBox, claudeGitMountPoints } from './claude-box.js';
import { claudeProtectedEditRules, claudeSandbox } from './sandbox-settings.js';
import { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_WALL_TIMEOUT_MS } from '../process-runner.js';
import { newClaudeState, translateClaudeLine } from './translate.js';

export const CLAUDE_INSTALL_HINT = 'npm install -g @anthropic-ai/claude-code';
/** Until the config has per-role timeouts. */
export const CLAUDE_WALL_TIMEOUT_MS = DEFAULT_WALL_TIMEOUT_MS;
export const CLAUDE_IDLE_TIMEOUT_MS = DEFAULT_IDLE_TIMEOUT_MS;

/**
 * The only tools of a read-only turn (`--tools`, an allowlist): a denylist would leave tools that change the repo or
 * the machine, e.g. EnterWorktree (a branch and a checkout under .claude/worktrees/) and CronCreate. Measured on
 * 2.1.197: with `--tools Read,Grep,Glob` the init line lists exactly these, and a call to EnterWorktree, CronCreate,
 * Write or Bash gets "No such tool available".
 */
export const READ_ONLY_TOOLS = ['Read', 'Grep', 'Glob'];

/**
 * The only tools of a write turn: the read-only ones, the file tools and Bash. Without an allowlist a write turn
 * keeps tools whose effects neither the sandbox nor the Edit rules cover, because claude itself does the writing:
 * CronCreate (a durable job in .claude/scheduled_tasks.json that fires in later sessions), EnterWorktree, Task
 * (a subagent), WebFetch. Measured on 2.1.197 by the e2e suite.
 */
export const WRITE_TOOLS = [...READ_ONLY_TOOLS, 'Edit', 'Write', 'NotebookEdit', 'Bash'];

/**
 * What a workspace-write turn may do without asking: edit files under the turn's cwd (an `Edit` rule covers every
 * file-editing tool). Shell commands are NOT allowed here: only the hook's `allow` lets one run, so a hook that
 * fails leaves claude's -p default, which denies (measured: acceptEdits instead runs mkdir, `echo > f` … unchecked).
 */
export const WRITE_ALLOWED_TOOLS = ['Edit(./**)'];

/** The `hooks` part of `--settings` that makes claude run agent-collab's hook before every Bash call. */
function hookSettings(hook: Pick<HookLaunch, 'command' | 'timeoutSeconds'>): Record<string, unknown> {
  return {
    PreToolUse: [
      { matcher: 'Bash', hooks: [{ type: 'command', command: hook.command, timeout: hook.timeoutSeconds }] },
    ],
  };
}

/** `--settings` JSON that makes claude run agent-collab's hook before every Bash call. */
export function claudeHookSettings(hook: Pick<HookLaunch, 'command' | 'timeoutSeconds'>): string {
  return JSON.stringify({ hooks: hookSettings(hook) });
}

/**
 * claude's auto memory off (the `autoMemoryEnabled` setting; CLAUDE_CODE_DISABLE_AUTO_MEMORY in claudeEnv does the
 * same for turns without `--settings`, and wins over a user setting): no turn is told to keep notes in, or is given,
 * the person's `projects/<repo>/memory/MEMORY.md`, which outlives the run and steers later claude sessions. claude
 * still auto-allows writes there, so the box keeps that dir read-only as well (claude-box.ts).
 */
export const AUTO_MEMORY_OFF_SETTINGS = { autoMemoryEnabled: false };

/** `--settings` JSON for a turn: the hook, the sandbox, or both (null: neither). */
export function claudeSettings(
  hook: Pick<HookLaunch, 'command' | 'timeoutSeconds'> | null,
  confined: ConfinedTurn | null,
): string | null {
  if (hook === null && confined === null) return null;
  return JSON.stringify({
    ...AUTO_MEMORY_OFF_SETTINGS,
    ...(hook !== null ? { hooks: hookSettings(hook) } : {}),
    ...(confined !== null ? { sandbox: claudeSandbox(confined) } : {}),
  });
}

/**
 * The repo's own `.claude/settings*.json` and `.mcp.json` are not read: an agent's write turn can change them, and
 * the hooks and MCP servers they name would run outside any sandbox in the next claude turn (found by a hostile
 * review; the e2e suite shows planted SessionStart/UserPromptSubmit/PreToolUse hooks ran before this). The person's
 * user settings still apply; agent-collab passes everything a turn needs on the command line.
 */
export const PROJECT_SETTINGS_OFF = ['--setting-sources', 'user', '--strict-mcp-config'];

/** Variables that make a claude started from inside a Claude Code session behave as a nested one. */
const NESTING_ENV = ['CLAUDECODE', 'CLAUDE_CODE_ENTRYPOINT'];

/**
 * Only workspace-write turns get the hook: a read-only turn runs without Bash (`--disallowedTools Bash …`), so the
 * hook could never fire there, and `--settings` slows every claude start. Should a read-only turn run a command
 * anyway, it has no approval and CliAgent stops it.
 */
export function claudeNeedsHook(turn: Pick<AgentTurn, 'access'>): boolean {
  return turn.access === 'workspace-write';
}

/**
 * argv after `claude`. The prompt is not among them: `-p` without one reads it from stdin (the process runner writes
 * it there; measured on 2.1.197 with a 1 MB prompt), so no argument limit applies. The permission mode is always explicit (`default`: in -p mode
 * anything not allowed is denied), so a user's settings cannot widen a turn. `--resume` only finds sessions
 * started in the same cwd: the turn's cwd is the repo root.
 */
export function buildClaudeArgs(
  turn: Pick<AgentTurn, 'prompt' | 'access'>,
  sessionId: string | null,
  hook: HookLaunch | null = null,
  confined: ConfinedTurn | null = null,
  model: ModelChoice = NO_MODEL_CHOICE,
): string[] {
  const write = turn.access === 'workspace-write';
  const args = ['-p', '--output-format', 'stream-json', '--verbose'];
  if (sessionId !== null) args.push('--resume', sessionId);
  // Before the variadic flags below, which would swallow them.
  if (model.model) args.push('--model', model.model);
  if (model.effort) args.push('--effort', model.effort);
  const settings = claudeSettings(hook !== null && claudeNeedsHook(turn) ? hook : null, write ? confined : null);
  if (settings !== null) args.push('--settings', settings);
  args.push('--permission-mode', 'default', ...PROJECT_SETTINGS_OFF);
  if (!write) return [...args, '--tools', READ_ONLY_TOOLS.join(',')];
  args.push('--tools', WRITE_TOOLS.join(','), '--allowedTools', ...WRITE_ALLOWED_TOOLS);
  if (confined !== null) args.push('--disallowedTools', ...claudeProtectedEditRules(confined));
  return args;
}

/** A Bash call ran when it completed, or failed with an exit code (a denied call has none). */
export function claudeCommandThatRan(event: AgentEvent): string | null {
  if (event.type !== 'command') return null;
  if (
    event.status === 'completed' ||
    (event.status === 'failed' && event.exitCode !== null && event.exitCode !== undefined)
  )
    return event.command;
  return null;
}

/** Turns claude's auto memory off on every turn (2.1.197 reads it before any setting); see AUTO_MEMORY_OFF_SETTINGS. */
export const AUTO_MEMORY_OFF_ENV = { CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' };

export function claudeEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, ...AUTO_MEMORY_OFF_ENV };
  for (const key of NESTING_ENV) delete env[key];
  return env;
}

export const claudeFlavor: CliFlavor = {
  cli: 'claude',
  installHint: CLAUDE_INSTALL_HINT,
  args: buildClaudeArgs,
  // Boxed on every turn (see claude-box.ts): its config dir private but for its sessions, the git dirs holding the
  // files its nested sandbox mounts over.
  outerBox: (turn, env) => {
    const config = claudeConfigBox(env, turn.cwd);
    return { stateDirs: config.stateDirs, privateDirs: [...config.privateDirs, ...claudeGitMountPoints(turn.cwd)] };
  },
  needsHook: claudeNeedsHook,
  // claude 2.1.197 exits with output a pipe has not taken yet still queued, and loses it (a 2 MB answer, or any
  // answer while a slow `--json` reader holds agent-collab back): a file takes all of it.
  stdoutToFile: true,
  translator() {
    const state = newClaudeState();
    return { line: (json) => translateClaudeLine(json, state), finish: () => [] };
  },
  env: () => claudeEnv(),
  commandThatRan: claudeCommandThatRan,
};

export function createClaudeAgent(opts: CliAgentOptions): CliAgent {
  return new CliAgent(claudeFlavor, {
    wallTimeoutMs: CLAUDE_WALL_TIMEOUT_MS,
    idleTimeoutMs: CLAUDE_IDLE_TIMEOUT_MS,
    ...opts,
  });
}
