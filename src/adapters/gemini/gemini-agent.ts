// Gemini CLI adapter (`@google/gemini-cli`): `gemini -p "" --output-format stream-json`, the prompt on stdin (the CLI
// appends `-p` to what stdin holds), continued with `--resume <session_id>`. Measured on 0.61.0: docs/agents/gemini.md.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentEvent, AgentTurn } from '../../core/types.js';
import type { HookLaunch } from '../command-hook/endpoint.js';
import { CliAgent, NO_MODEL_CHOICE, type CliAgentOptions, type CliFlavor, type ModelChoice } from '../cli-agent.js';
import { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_WALL_TIMEOUT_MS } from '../process-runner.js';
import { agentHome, pruneGoneHomes, recordHomeRepo } from '../agent-homes.js';
import { finishGemini, GEMINI_SHELL_TOOL, newGeminiState, translateGeminiLine } from './translate.js';

export const GEMINI_INSTALL_HINT = 'npm install -g @google/gemini-cli';

/**
 * argv after `gemini`. Read-only turns run in the `default` approval mode: headless, gemini then does not even offer
 * its write and shell tools (write_file, replace, run_shell_command; measured). Write turns run in `yolo`: every tool
 * call is approved, shell commands by agent-collab's hook (settings file) and the box around the whole CLI.
 * `--skip-trust`: headless gemini refuses an untrusted folder (exit 55).
 */
export function buildGeminiArgs(
  turn: Pick<AgentTurn, 'access'>,
  sessionId: string | null,
  model: ModelChoice = NO_MODEL_CHOICE,
): string[] {
  const mode = turn.access === 'workspace-write' ? 'yolo' : 'default';
  return [
    '-p',
    '',
    '--output-format',
    'stream-json',
    '--skip-trust',
    '--approval-mode',
    mode,
    ...(model.model ? ['-m', model.model] : []),
    ...(sessionId !== null ? ['--resume', sessionId] : []),
  ];
}

/**
 * The hook command gemini runs before every shell command. gemini reads `{"decision":"allow"|"deny","reason"}` (not
 * the PreToolUse shape agent-collab's hook prints), and lets the command run when a hook prints nothing or fails: so
 * the answer is translated here, and anything but an explicit allow becomes a deny.
 */
export function geminiHookCommand(hookCommand: string): string {
  const allow = `*'"permissionDecision":"allow"'*) printf '%s\\n' '{"decision":"allow"}' ;;`;
  const deny =
    `*'"permissionDecisionReason":"'*) r=\${out#*'"permissionDecisionReason":"'}; ` +
    `printf '{"decision":"deny","reason":"%s}\\n' "\${r%\\}\\}}" ;;`;
  const none = `*) printf '%s\\n' '{"decision":"deny","reason":"agent-collab: the command hook gave no answer, so the command was denied"}' ;;`;
  return `out=$(${hookCommand}); case "$out" in ${allow} ${deny} ${none} esac`;
}

/** The settings agent-collab gives gemini for one turn (in its settings.json). */
export function geminiSettings(hook: Pick<HookLaunch, 'command' | 'timeoutSeconds'> | null, env: NodeJS.ProcessEnv) {
  return {
    // With only GEMINI_API_KEY in the environment, headless gemini 0.61 has no auth method ("Invalid auth method").
    ...(env.GEMINI_API_KEY ? { security: { auth: { selectedType: 'gemini-api-key' } } } : {}),
    ...(hook === null
      ? {}
      : {
          hooks: {
            BeforeTool: [
              {
                matcher: GEMINI_SHELL_TOOL,
                hooks: [
                  { type: 'command', command: geminiHookCommand(hook.command), timeout: hook.timeoutSeconds * 1000 },
                ],
              },
            ],
          },
        }),
  };
}

/**
 * Where this agent's settings file lives: in the person's state dir, outside the repo (the box keeps it read-only).
/**
 * The home agent-collab gives gemini (`GEMINI_CLI_HOME`), one per repo: its `.gemini/settings.json` is written before
 * every turn (the person's own settings with agent-collab's hook on top), so the person's file is never changed and
 * an agent's edit of it does not last into the next turn. gemini keeps its sessions there too. (gemini's "system"
 * settings file would override everything, but gemini 0.61 skips one not owned by root, and inside the box nothing is.)
 */
export function geminiHome(env: NodeJS.ProcessEnv, repo: string): string {
  return agentHome(env, 'gemini', repo);
}

/** The person's own gemini dir: `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`. */
export function personalGeminiDir(env: NodeJS.ProcessEnv): string {
  return path.join(env.GEMINI_CLI_HOME ?? env.HOME ?? os.homedir(), '.gemini');
}

/** Login files of the person's gemini dir that agent-collab's home links to (OAuth users keep their login). */
const LOGIN_FILES = ['oauth_creds.json', 'google_accounts.json', 'installation_id', '.env'];

function readPersonalSettings(dir: string): Record<string, unknown> {
  try {
    const json: unknown = JSON.parse(readFileSync(path.join(dir, 'settings.json'), 'utf8'));
    return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  } catch {
    return {}; // none, or with comments: gemini's defaults
  }
}

/** Writes the turn's settings into agent-collab's gemini home (made on first use) and links the login files. */
export function prepareGeminiHome(home: string, hook: HookLaunch | null, env: NodeJS.ProcessEnv): void {
  const own = path.join(home, '.gemini');
  mkdirSync(own, { recursive: true, mode: 0o700 });
  const personal = personalGeminiDir(env);
  // Ours replace the person's hooks (one of theirs could let a command through) and, with a key, the auth method.
  const merged = { ...readPersonalSettings(personal), ...geminiSettings(hook, env) };
  if (hook === null) delete merged.hooks;
  writeFileSync(path.join(own, 'settings.json'), `${JSON.stringify(merged, null, 2)}\n`, { mode: 0o600 });
  for (const name of LOGIN_FILES) {
    const from = path.join(personal, name);
    const to = path.join(own, name);
    if (!existsSync(from) || existsSync(to)) continue;
    try {
      symlinkSync(from, to);
    } catch {
      // gemini then asks for its login, and says so
    }
  }
}

/**
 * A command that ran, as the hook saw it. gemini reports the call (`tool_use`, "started") BEFORE its BeforeTool hook
 * runs, so only its result says it ran; a call the hook blocked is no command event at all (translate.ts).
 */
export function geminiCommandThatRan(event: AgentEvent): string | null {
  return event.type === 'command' && event.status !== 'started' ? event.command : null;
}

/** `--resume <unknown id>`: exit 42, `Error resuming session: Invalid session identifier "<id>"` (0.61.0). */
export function geminiSessionLost(stderr: string): boolean {
  return /Error resuming session|Invalid session identifier/i.test(stderr);
}

export const geminiFlavor: CliFlavor = {
  cli: 'gemini',
  installHint: GEMINI_INSTALL_HINT,
  prepare: (turn, hook) => {
    const home = geminiHome(process.env, turn.cwd);
    try {
      prepareGeminiHome(home, hook, process.env);
      recordHomeRepo(home, turn.cwd);
      pruneGoneHomes(home);
      return null;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      return `cannot write gemini's settings in ${home} (${code}): make that dir writable, or set XDG_STATE_HOME`;
    }
  },
  args: (turn, sessionId, _hook, _confined, model) => buildGeminiArgs(turn, sessionId, model),
  // gemini writes its sessions, logs and caches in its home; the box shows the person's ~/.gemini read-only.
  outerBox: (turn, env) => ({ stateDirs: [path.join(geminiHome(env, turn.cwd), '.gemini')] }),
  translator() {
    const state = newGeminiState();
    return { line: (json) => translateGeminiLine(json, state), finish: () => finishGemini(state) };
  },
  // No relaunch: gemini otherwise starts itself again as a child node process (for a larger heap).
  env: (turn) => ({
    ...process.env,
    GEMINI_CLI_HOME: geminiHome(process.env, turn.cwd),
    GEMINI_CLI_NO_RELAUNCH: 'true',
  }),
  sessionLost: geminiSessionLost,
  commandThatRan: geminiCommandThatRan,
};

export function createGeminiAgent(opts: CliAgentOptions): CliAgent {
  return new CliAgent(geminiFlavor, {
    wallTimeoutMs: DEFAULT_WALL_TIMEOUT_MS,
    idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS,
    ...opts,
  });
}
