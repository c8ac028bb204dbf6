import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { configSchema, type Config } from './config-schema.js';
import { describeConfigIssue } from './config-errors.js';
import { deepMerge, isPlainObject, type DeepPartial } from './deep-merge.js';
import { describeFsError } from './fs-errors.js';
import { EXIT, UserError } from '../core/errors.js';

export type { DeepPartial } from './deep-merge.js';

export interface LoadConfigOptions {
  /** null outside a git repo: only the user file and the defaults apply. */
  repoRoot: string | null;
  homeDir?: string;
  env?: NodeJS.ProcessEnv;
  /** CLI flags: the highest layer. `undefined` values are ignored. */
  overrides?: DeepPartial<Config>;
}

/** Where the user-level config lives: $XDG_CONFIG_HOME/agent-collab/config.toml, else ~/.config/agent-collab/config.toml. */
export function userConfigPath(homeDir: string = os.homedir(), env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(homeDir, '.config');
  return path.join(base, 'agent-collab', 'config.toml');
}

export function projectConfigPath(repoRoot: string): string {
  return path.join(path.resolve(repoRoot), '.agent-collab', 'config.toml');
}

/**
 * Defaults < user file < project file < overrides. Tables merge, arrays replace.
 * `sources` lists the config files that exist and were read, lowest layer first.
 */
export function loadConfig(opts: LoadConfigOptions): { config: Config; sources: string[] } {
  const files = [
    userConfigPath(opts.homeDir, opts.env),
    ...(opts.repoRoot === null ? [] : [projectConfigPath(opts.repoRoot)]),
  ];
  let merged: Record<string, unknown> = {};
  const sources: string[] = [];
  for (const file of files) {
    const layer = readLayer(file);
    if (layer === null) continue;
    validateConfigLayer(layer, file);
    merged = deepMerge(merged, layer);
    sources.push(file);
  }
  if (opts.overrides) {
    validateConfigLayer(opts.overrides, 'command-line options');
    merged = deepMerge(merged, opts.overrides as Record<string, unknown>);
  }
  return { config: validateConfigLayer(merged, 'the merged configuration'), sources };
}

function readLayer(file: string): Record<string, unknown> | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    const fsProblem = describeFsError(err, file);
    if (fsProblem) throw new UserError(`config error in ${file}: ${fsProblem}`, EXIT.badInput);
    const reason = (err as Error).message.split('\n')[0];
    throw new UserError(
      `config error in ${file}: cannot read the file (${reason}); fix its permissions or remove it`,
      EXIT.badInput,
    );
  }
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (err) {
    const line = (err as { line?: number }).line ?? '?';
    const reason = ((err as Error).message.split('\n')[0] ?? '').replace(/^Invalid TOML document:\s*/, '');
    throw new UserError(`config error in ${file}: invalid TOML at line ${line}: ${reason}`, EXIT.badInput);
  }
}

/** Validates one config layer (a file, the flags, the library API's `config`): one-line UserError naming `label`. */
export function validateConfigLayer(raw: unknown, label: string): Config {
  const result = configSchema.safeParse(isPlainObject(raw) ? raw : {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const detail = issue ? describeConfigIssue(issue, raw) : result.error.message;
  throw new UserError(`config error in ${label}: ${detail}`, EXIT.badInput);
}
