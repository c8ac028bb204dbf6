// Codex CLI adapter: `codex exec --json -`, continued with `codex exec resume --json <thread_id> -`; the prompt on stdin.
import { NO_MODEL_CHOICE, type ModelChoice } from '../cli-agent.js';
import os from 'node:os';
import path from 'node:path';
import type { AgentEvent, AgentTurn } from '../../core/types.js';
import { unwrapShellCommand } from '../command-hook/approvals.js';
import type { HookLaunch } from '../command-hook/endpoint.js';
import { CliAgent, type CliAgentOptions, type CliFlavor } from '../cli-agent.js';
import { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_WALL_TIMEOUT_MS } from '../process-runner.js';
import { finishCodex, newCodexState, translateCodexLine, translateCodexStderr } from './translate.js';

export const CODEX_INSTALL_HINT = 'npm install -g @openai/codex';
/** Until the config has per-role timeouts. */
export const CODEX_WALL_TIMEOUT_MS = DEFAULT_WALL_TIMEOUT_MS;
export const CODEX_IDLE_TIMEOUT_MS = DEFAULT_IDLE_TIMEOUT_MS;

/** `-c` override that makes codex run agent-collab's hook before every shell command (TOML inline table). */
export function codexHookConfig(hook: Pick<HookLaunch, 'command' | 'timeoutSeconds'>): string {
  // A JSON string is a valid TOML basic string.
  return `hooks.PreToolUse=[{matcher="Bash",hooks=[{type="command",command=${JSON.stringify(hook.command)},timeout=${hook.timeoutSeconds}}]}]`;
}

/**
 * Without this flag codex silently skips a hook nobody reviewed in its UI, and runs the command (measured, 0.169).
 * With it, the stream starts with two warning items (see translate.ts).
 */
export const CODEX_HOOK_TRUST_FLAG = '--dangerously-bypass-hook-trust';

/** codex's prompt argument that makes it read the prompt from stdin (an argument is limited to 128 KB). */
export const CODEX_PROMPT_FROM_STDIN = '-';

/**
 * argv after `codex`; the prompt itself goes to stdin (`-`). The sandbox is always explicit, so a user's config.toml cannot widen a read-only turn;
 * `resume` rejects `--sandbox`, so it gets `-c sandbox_mode=…` and runs in the turn's cwd (no `-C`).
 */
export function buildCodexArgs(
  turn: Pick<AgentTurn, 'prompt' | 'cwd' | 'access'>,
  threadId: string | null,
  hook: HookLaunch | null = null,
  model: ModelChoice = NO_MODEL_CHOICE,
): string[] {
  const sandbox = turn.access === 'workspace-write' ? 'workspace-write' : 'read-only';
  const hookArgs = hook === null ? [] : ['-c', codexHookConfig(hook), CODEX_HOOK_TRUST_FLAG];
  // `exec` and `exec resume` both take -m and -c (measured on 0.169.0).
  const modelArgs = [
    ...(model.model ? ['-m', model.model] : []),
    ...(model.effort ? ['-c', `model_reasoning_effort="${model.effort}"`] : []),
  ];
  if (threadId === null)
    return ['exec', '--json', '-C', turn.cwd, '--sandbox', sandbox, ...modelArgs, ...hookArgs, CODEX_PROMPT_FROM_STDIN];
  return [
    'exec',
    'resume',
    '--json',
    '-c',
    `sandbox_mode="${sandbox}"`,
    ...modelArgs,
    ...hookArgs,
    threadId,
    CODEX_PROMPT_FROM_STDIN,
  ];
}

/** codex reports a command as it runs it (`/bin/bash -lc '<cmd>'`); the hook saw `<cmd>`. */
export function codexCommandThatRan(event: AgentEvent): string | null {
  return event.type === 'command' ? unwrapShellCommand(event.command) : null;
}

/**
 * codex runs whole under agent-collab's bubblewrap box (its own sandbox nests inside and still works, measured on
 * 0.169 as root): the box makes `.agent-collab/` and `.git` read-only to apply_patch, which codex applies itself,
 * and to its commands. codex must still write its CODEX_HOME (sessions, logs).
 */
export function codexStateDirs(env: NodeJS.ProcessEnv): string[] {
  return [env.CODEX_HOME ?? path.join(env.HOME ?? os.homedir(), '.codex')];
}

export const codexFlavor: CliFlavor = {
  cli: 'codex',
  installHint: CODEX_INSTALL_HINT,
  args: (turn, threadId, hook, _confined, model) => buildCodexArgs(turn, threadId, hook, model),
  // Measured on 0.169: "Input exceeds the maximum length of 1048576 characters", exit 1, with a backtrace.
  maxPromptChars: 1_048_576,
  outerBox: (_turn, env) => ({ stateDirs: codexStateDirs(env) }),
  translator() {
    const state = newCodexState();
    return {
      line: (json) => translateCodexLine(json, state),
      finish: () => finishCodex(state),
      stderr: (line) => translateCodexStderr(line, state),
    };
  },
  env: () => codexEnv(process.env),
  sessionLost: codexSessionLost,
  commandThatRan: codexCommandThatRan,
};

/**
 * codex says how long it waits before retrying a request only in this log line on stderr (see translate.ts): it is
 * turned on, on top of whatever RUST_LOG the person set.
 */
export const CODEX_RETRY_LOG = 'codex_core::responses_retry=warn';

export function codexEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const own = env.RUST_LOG?.trim();
  return { ...env, RUST_LOG: own ? `${own},${CODEX_RETRY_LOG}` : `error,${CODEX_RETRY_LOG}` };
}

/**
 * `codex exec resume <unknown id>` prints no JSON, exits 1 and says on stderr (0.169.0):
 * `Error: thread/resume: thread/resume failed: no rollout found for thread id <id> (code -32600)`.
 */
export function codexSessionLost(stderr: string): boolean {
  return /no rollout found|thread\/resume failed/i.test(stderr);
}

export function createCodexAgent(opts: CliAgentOptions): CliAgent {
  return new CliAgent(codexFlavor, {
    wallTimeoutMs: CODEX_WALL_TIMEOUT_MS,
    idleTimeoutMs: CODEX_IDLE_TIMEOUT_MS,
    ...opts,
  });
}
