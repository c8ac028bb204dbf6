// doctor's opencode-specific check: how opencode is pointed at a model, that agent-collab's command gate plugin
// ships, and how its turns are confined (opencode has no sandbox of its own).
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { commandGatePluginPresent } from '../adapters/opencode/opencode-agent.js';
import type { Config } from '../persistence/config-schema.js';
import type { Check } from './doctor.js';

/** Where opencode reads its own (global) config: $OPENCODE_CONFIG, else ~/.config/opencode/opencode.json(c). */
export function opencodeConfigFiles(env: NodeJS.ProcessEnv): string[] {
  const dir = path.join(env.XDG_CONFIG_HOME ?? path.join(env.HOME ?? os.homedir(), '.config'), 'opencode');
  return [
    ...(env.OPENCODE_CONFIG ? [env.OPENCODE_CONFIG] : []),
    ...['opencode.json', 'opencode.jsonc', 'config.json'].map((f) => path.join(dir, f)),
  ];
}

export function opencodeCheck(config: Config, env: NodeJS.ProcessEnv = process.env): Check | null {
  const roles = (['planner', 'reviewer'] as const).filter((r) => config.roles[r] === 'opencode');
  if (roles.length === 0) return null;
  if (!commandGatePluginPresent())
    return {
      name: 'opencode setup',
      ok: false,
      detail: "agent-collab's command gate for opencode (its plugin and shell) is missing from the package",
      fix: 'reinstall agent-collab',
    };
  const models = roles.map((r) => config.roles[`${r}_model`]).filter((m) => m !== '');
  const files = opencodeConfigFiles(env).filter((f) => existsSync(f));
  const model =
    models.length > 0
      ? `model ${models.join(', ')} from [roles]`
      : files.length > 0
        ? `model and provider from ${files.join(', ')}`
        : "opencode's default model (no [roles] *_model and no opencode config file)";
  const box =
    config.safety.sandbox === 'on'
      ? "runs whole inside agent-collab's bubblewrap box (no sandbox of its own)"
      : 'runs UNCONFINED ([safety] sandbox = "off")';
  return {
    name: 'opencode setup',
    ok: true,
    detail: `${model}; ${box}; every bash call goes through the command policy (plugin)`,
  };
}
