// Claude Code adapter: `claude -p <prompt> --output-format stream-json --verbose`, continued with `--resume <id>`.
import type { AgentEvent, AgentTurn } from '../../core/types.js';
import type { HookLaunch } from '../command-hook/endpoint.js';
import { CliAgent, type CliAgentOptions, type CliFlavor } from '../cli-agent.js';
import { promptArg } from '../cli-args.js';
import { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_WALL_TIMEOUT_MS } from '../process-runner.js';
import { newClaudeState, translateClaudeLine } from './translate.js';

export const CLAUDE_INSTALL_HINT = 'npm install -g @anthropic-ai/claude-code';
/** Until the config has per-role timeouts. */
export const CLAUDE_WALL_TIMEOUT_MS = DEFAULT_WALL_TIMEOUT_MS;
export const CLAUDE_IDLE_TIMEOUT_MS = DEFAULT_IDLE_TIMEOUT_MS;

/** Removed from read-only turns' tool list, so the model does not even try to change anything. */
export const READ_ONLY_DISALLOWED_TOOLS = ['Bash', 'Write', 'Edit', 'NotebookEdit'];

/**
 * What a workspace-write turn may do without asking: edit files under the turn's cwd (an `Edit` rule covers every
 * file-editing tool). Shell commands are NOT allowed here: only the hook's `allow` lets one run, so a hook that
 * fails leaves claude's -p default, which denies (measured: acceptEdits instead runs mkdir, `echo > f` … unchecked).
 */
export const WRITE_ALLOWED_TOOLS = ['Edit(./**)'];

/** `--settings` JSON that makes claude run agent-collab's hook before every Bash call. */
export function claudeHookSettings(hook: Pick<HookLaunch, 'command' | 'timeoutSeconds'>): string {
  return JSON.stringify({
    hooks: {
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: hook.command, timeout: hook.timeoutSeconds }] },
      ],
    },
  });
}

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
 * argv after `claude`. The prompt comes right after -p, before the variadic `--allowedTools` / `--disallowedTools`
 * (which would swallow a following positional). The permission mode is always explicit (`default`: in -p mode
 * anything not allowed is denied), so a user's settings cannot widen a turn. `--resume` only finds sessions
 * started in the same cwd: the turn's cwd is the repo root.
 */
export function buildClaudeArgs(
  turn: Pick<AgentTurn, 'prompt' | 'access'>,
  sessionId: string | null,
  hook: HookLaunch | null = null,
): string[] {
  const args = ['-p', promptArg(turn.prompt), '--output-format', 'stream-json', '--verbose'];
  if (sessionId !== null) args.push('--resume', sessionId);
  if (hook !== null && claudeNeedsHook(turn)) args.push('--settings', claudeHookSettings(hook));
  args.push('--permission-mode', 'default');
  if (turn.access === 'workspace-write') args.push('--allowedTools', ...WRITE_ALLOWED_TOOLS);
  else args.push('--disallowedTools', ...READ_ONLY_DISALLOWED_TOOLS);
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

export function claudeEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env = { ...base };
  for (const key of NESTING_ENV) delete env[key];
  return env;
}

export const claudeFlavor: CliFlavor = {
  cli: 'claude',
  installHint: CLAUDE_INSTALL_HINT,
  args: buildClaudeArgs,
  needsHook: claudeNeedsHook,
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
