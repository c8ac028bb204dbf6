// Codex CLI adapter: `codex exec --json`, continued with `codex exec resume --json <thread_id>`.
import type { AgentTurn } from '../../engine/types.js';
import { CliAgent, type CliAgentOptions, type CliFlavor } from '../cli-agent.js';
import { promptArg } from '../cli-args.js';
import { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_WALL_TIMEOUT_MS } from '../process-runner.js';
import { finishCodex, newCodexState, translateCodexLine } from './translate.js';

export const CODEX_INSTALL_HINT = 'npm install -g @openai/codex';
/** Until the config has per-role timeouts. */
export const CODEX_WALL_TIMEOUT_MS = DEFAULT_WALL_TIMEOUT_MS;
export const CODEX_IDLE_TIMEOUT_MS = DEFAULT_IDLE_TIMEOUT_MS;

/**
 * argv after `codex`. The sandbox is always explicit, so a user's config.toml cannot widen a read-only turn;
 * `resume` rejects `--sandbox`, so it gets `-c sandbox_mode=…` and runs in the turn's cwd (no `-C`).
 */
export function buildCodexArgs(turn: Pick<AgentTurn, 'prompt' | 'cwd' | 'access'>, threadId: string | null): string[] {
  const sandbox = turn.access === 'workspace-write' ? 'workspace-write' : 'read-only';
  if (threadId === null) return ['exec', '--json', '-C', turn.cwd, '--sandbox', sandbox, promptArg(turn.prompt)];
  return ['exec', 'resume', '--json', '-c', `sandbox_mode="${sandbox}"`, threadId, promptArg(turn.prompt)];
}

export const codexFlavor: CliFlavor = {
  cli: 'codex',
  installHint: CODEX_INSTALL_HINT,
  args: buildCodexArgs,
  translator() {
    const state = newCodexState();
    return { line: (json) => translateCodexLine(json, state), finish: () => finishCodex(state) };
  },
  sessionLost: codexSessionLost,
};

/**
 * `codex exec resume <unknown id>` prints no JSON, exits 1 and says on stderr (0.169.0):
 * `Error: thread/resume: thread/resume failed: no rollout found for thread id <id> (code -32600)`.
 */
export function codexSessionLost(stderr: string): boolean {
  return /no rollout found|thread\/resume failed/i.test(stderr);
}

export function createCodexAgent(opts: CliAgentOptions): CliAgent {
  return new CliAgent(codexFlavor, { wallTimeoutMs: CODEX_WALL_TIMEOUT_MS, idleTimeoutMs: CODEX_IDLE_TIMEOUT_MS, ...opts });
}
