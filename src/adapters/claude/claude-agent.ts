// Claude Code adapter: `claude -p <prompt> --output-format stream-json --verbose`, continued with `--resume <id>`.
import type { AgentTurn } from '../../engine/types.js';
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

/** Variables that make a claude started from inside a Claude Code session behave as a nested one. */
const NESTING_ENV = ['CLAUDECODE', 'CLAUDE_CODE_ENTRYPOINT'];

/**
 * argv after `claude`. The prompt comes right after -p, before the variadic `--disallowedTools` (which would
 * swallow a following positional). The permission mode is always explicit, so a user's settings cannot widen a
 * read-only turn. `--resume` only finds sessions started in the same cwd: the turn's cwd is the repo root.
 */
export function buildClaudeArgs(turn: Pick<AgentTurn, 'prompt' | 'access'>, sessionId: string | null): string[] {
  const args = ['-p', promptArg(turn.prompt), '--output-format', 'stream-json', '--verbose'];
  if (sessionId !== null) args.push('--resume', sessionId);
  if (turn.access === 'workspace-write') args.push('--permission-mode', 'acceptEdits');
  else args.push('--permission-mode', 'default', '--disallowedTools', ...READ_ONLY_DISALLOWED_TOOLS);
  return args;
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
  translator() {
    const state = newClaudeState();
    return { line: (json) => translateClaudeLine(json, state), finish: () => [] };
  },
  env: () => claudeEnv(),
};

export function createClaudeAgent(opts: CliAgentOptions): CliAgent {
  return new CliAgent(claudeFlavor, { wallTimeoutMs: CLAUDE_WALL_TIMEOUT_MS, idleTimeoutMs: CLAUDE_IDLE_TIMEOUT_MS, ...opts });
}
