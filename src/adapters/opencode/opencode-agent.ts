// opencode adapter (npm `opencode-ai`): `opencode run --format json`, continued with `--session <id>`; the prompt on
// stdin (opencode appends stdin to the message). Measured on 1.18.33, see docs/agents/opencode.md.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AgentEvent, AgentTurn } from '../../core/types.js';
import { fromPackageRoot } from '../../package-root.js';
import { CliAgent, NO_MODEL_CHOICE, type CliAgentOptions, type CliFlavor, type ModelChoice } from '../cli-agent.js';
import type { HookLaunch } from '../command-hook/endpoint.js';
import type { OuterBox } from '../confinement/outer-box.js';
import { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_WALL_TIMEOUT_MS } from '../process-runner.js';
import { opencodeHome, opencodeHomeBox, opencodeXdg, prepareOpencodeHome } from './opencode-home.js';
import { finishOpencode, newOpencodeState, translateOpencodeLine } from './translate.js';

export const OPENCODE_INSTALL_HINT = 'npm install -g opencode-ai';

/** A fixed title: without `--title` opencode asks the model for one first, an extra model request per session. */
export const OPENCODE_TITLE = 'agent-collab';

/** The shipped command gate plugin: next to this module in the sources, copied into dist/ by scripts/bundle.mjs. */
export function commandGatePluginPath(): string {
  return import.meta.url.endsWith('.ts')
    ? fileURLToPath(new URL('./command-gate-plugin.js', import.meta.url))
    : fromPackageRoot('dist', 'adapters', 'opencode', 'command-gate-plugin.js');
}

/**
 * The shell opencode's bash tool runs commands with (config `shell`): it runs only the calls the plugin approved
 * (gate-shell/bash), so the gate fails closed when opencode did not load the plugin.
 */
export function gateShellPath(): string {
  return import.meta.url.endsWith('.ts')
    ? fileURLToPath(new URL('./gate-shell/bash', import.meta.url))
    : fromPackageRoot('dist', 'adapters', 'opencode', 'gate-shell', 'bash');
}

/**
 * The config agent-collab layers over the person's own (OPENCODE_CONFIG_CONTENT): the command gate plugin when a
 * hook is given, no sharing or self-update, no web fetches, and no file edits in a read-only turn (the box makes the
 * repo read-only then as well). No formatters and no LSP servers: opencode would start them on the repo's files
 * itself, commands the command policy never sees.
 */
export function opencodeConfig(
  turn: Pick<AgentTurn, 'access'>,
  hook: HookLaunch | null,
  plugin: string = commandGatePluginPath(),
): Record<string, unknown> {
  const write = turn.access === 'workspace-write';
  return {
    ...(hook === null ? {} : { plugin: [pathToFileURL(plugin).href], shell: gateShellPath() }),
    share: 'disabled',
    autoupdate: false,
    formatter: false,
    lsp: false,
    permission: { edit: write ? 'allow' : 'deny', bash: 'allow', webfetch: 'deny', external_directory: 'deny' },
  };
}

/** argv after `opencode`; the prompt goes to stdin. */
export function buildOpencodeArgs(sessionId: string | null, model: ModelChoice = NO_MODEL_CHOICE): string[] {
  return [
    'run',
    '--format',
    'json',
    '--title',
    OPENCODE_TITLE,
    ...(sessionId === null ? [] : ['--session', sessionId]),
    ...(model.model ? ['--model', model.model] : []),
    ...(model.effort ? ['--variant', model.effort] : []),
  ];
}

/**
 * The child's environment. OPENCODE_DISABLE_PROJECT_CONFIG keeps the repo's own `opencode.json` and `.opencode/`
 * (plugins an agent may have written) out (measured: with it neither loads). PWD is dropped: opencode takes its
 * project dir from PWD over its real cwd (measured: it opened the parent's dir). The XDG data/cache/state bases point
 * at agent-collab's opencode home for the repo (opencode-home.ts), never at the person's own opencode dirs.
 */
export function opencodeEnv(
  turn: Pick<AgentTurn, 'access' | 'cwd'>,
  hook: HookLaunch | null,
  env: NodeJS.ProcessEnv,
): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {
    ...env,
    ...opencodeXdg(opencodeHome(env, turn.cwd)),
    // Absolute, as the box mounts them read-only (opencode would take a relative one from the turn's repo).
    ...(env.OPENCODE_CONFIG_DIR ? { OPENCODE_CONFIG_DIR: path.resolve(env.OPENCODE_CONFIG_DIR) } : {}),
    ...(env.OPENCODE_CONFIG ? { OPENCODE_CONFIG: path.resolve(env.OPENCODE_CONFIG) } : {}),
    PWD: turn.cwd,
    OPENCODE_CONFIG_CONTENT: JSON.stringify(opencodeConfig(turn, hook)),
    OPENCODE_DISABLE_PROJECT_CONFIG: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_SHARE: '1',
  };
  if (hook !== null) {
    // A fresh secret per turn: the plugin hands it to the gate shell for each call it approved.
    out.AGENT_COLLAB_OPENCODE_GATE_TOKEN = randomBytes(24).toString('hex');
    out.SHELL = gateShellPath();
    out.AGENT_COLLAB_OPENCODE_HOOK = hook.command;
    out.AGENT_COLLAB_OPENCODE_HOOK_TIMEOUT_SECONDS = String(hook.timeoutSeconds);
  }
  return out;
}

/** opencode's global config dir, whose plugin/ and tool/ dirs it loads code from on start. */
export function opencodeConfigDir(env: NodeJS.ProcessEnv): string {
  return path.join(env.XDG_CONFIG_HOME ?? path.join(env.HOME ?? os.homedir(), '.config'), 'opencode');
}

/**
 * The config dirs opencode loads code from (plugin/, tool/): the global one and the one OPENCODE_CONFIG_DIR names
 * (measured: its plugins load even with OPENCODE_DISABLE_PROJECT_CONFIG).
 */
export function opencodeConfigDirs(env: NodeJS.ProcessEnv): string[] {
  const extra = env.OPENCODE_CONFIG_DIR;
  return [opencodeConfigDir(env), ...(extra ? [path.resolve(extra)] : [])];
}

/**
 * The box around a turn, for the person's environment `env` (opencode-home.ts), with the command gate's files. The
 * config dirs are read-only there
 * (the person's entries shown, nothing writable): a turn cannot leave a plugin for the next one. opencode then also
 * skips installing its plugin SDK there on start (it installs only into a writable dir: measured, that install was
 * most of a turn's start).
 */
export function opencodeOuterBox(
  env: NodeJS.ProcessEnv,
  repo: string,
  gateFiles: string[] = [gateShellPath(), commandGatePluginPath()],
): OuterBox {
  const box = opencodeHomeBox(env, repo, opencodeConfigDirs(env));
  // The gate's files, read-only at their own paths: agent-collab may be installed under /tmp, which is private in
  // the box, and opencode falls back to plain bash when its configured shell is missing (measured: a fresh-clone CI
  // in /tmp ran an agent's chmod with neither the plugin nor the gate shell there).
  return { ...box, readOnly: [...gateFiles, ...(box.readOnly ?? [])] };
}

/** What opencode writes into each config dir it reads, if missing (1.18.33: it dies when it cannot). */
const CONFIG_GITIGNORE = ['node_modules', 'package.json', 'package-lock.json', 'bun.lock', '.gitignore'].join('\n');

/**
 * The config dirs must exist for the box to mount over them (inside, HOME is read-only), with the `.gitignore` that
 * opencode would otherwise write there on start.
 */
export function prepareOpencodeConfigDir(env: NodeJS.ProcessEnv): string | null {
  for (const dir of opencodeConfigDirs(env)) {
    try {
      mkdirSync(dir, { recursive: true });
      const ignore = path.join(dir, '.gitignore');
      if (!existsSync(ignore)) writeFileSync(ignore, CONFIG_GITIGNORE);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      return `cannot prepare opencode's config dir ${dir} (${code}): make it writable, or set XDG_CONFIG_HOME`;
    }
  }
  return null;
}

/** The config dirs and agent-collab's opencode home for the turn's repo; null, or why they cannot be made. */
export function prepareOpencode(env: NodeJS.ProcessEnv, repo: string): string | null {
  const problem = prepareOpencodeConfigDir(env);
  if (problem !== null) return problem;
  try {
    prepareOpencodeHome(env, repo);
    return null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    return `cannot prepare agent-collab's opencode home ${opencodeHome(env, repo)} (${code}): make it writable, or set XDG_STATE_HOME`;
  }
}

/** A bash call opencode ran (a denied one ends as a failed tool call, not a command). */
export function opencodeCommandThatRan(event: AgentEvent): string | null {
  return event.type === 'command' ? event.command : null;
}

export function opencodeFlavor(): CliFlavor {
  return {
    cli: 'opencode',
    installHint: OPENCODE_INSTALL_HINT,
    args: (_turn, sessionId, _hook, _confined, model) => buildOpencodeArgs(sessionId, model),
    // opencode has no sandbox of its own: it runs whole inside agent-collab's box on every turn.
    // The box is made from the person's environment (their opencode dirs), not the child's (agent-collab's home).
    outerBox: (turn) => opencodeOuterBox(process.env, turn.cwd),
    prepare: (turn, hook) =>
      hook !== null && !commandGatePluginPresent()
        ? "agent-collab's command gate for opencode (its plugin and shell) is missing from the package: reinstall agent-collab"
        : prepareOpencode(process.env, turn.cwd),
    translator() {
      const state = newOpencodeState();
      return {
        line: (json) => translateOpencodeLine(json, state),
        finish: () => finishOpencode(state),
      };
    },
    env: (turn, hook) => opencodeEnv(turn, hook, process.env),
    sessionLost: opencodeSessionLost,
    commandThatRan: opencodeCommandThatRan,
  };
}

/** `--session <unknown id>`: opencode says the session is not found. */
export function opencodeSessionLost(stderr: string): boolean {
  return /session[^\n]*not found|NotFoundError/i.test(stderr);
}

export function createOpencodeAgent(opts: CliAgentOptions): CliAgent {
  return new CliAgent(opencodeFlavor(), {
    wallTimeoutMs: DEFAULT_WALL_TIMEOUT_MS,
    idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS,
    ...opts,
  });
}

/**
 * Whether the gate plugin and its shell ship where the adapter looks for them (doctor, and every gated turn:
 * opencode falls back to plain bash when its configured shell is missing).
 */
export function commandGatePluginPresent(): boolean {
  return existsSync(commandGatePluginPath()) && existsSync(gateShellPath());
}
