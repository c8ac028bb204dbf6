import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { EXIT, UserError } from '../core/errors.js';
import type { Config } from './config-schema.js';

/** Absolute locations of everything agent-collab keeps on disk for one repo. */
export interface Paths {
  repoRoot: string;
  workdir: string;
  state: string;
  plan: string;
  comments: string;
  /** The issue ledger, rendered from the state (issue 19). */
  ledger: string;
  log: string;
  debugLog: string;
  history: string;
  runs: string;
  /** Prompt templates here override the built-in ones. */
  promptsOverride: string;
  /** The project config is always `<repoRoot>/.agent-collab/config.toml`, even when paths.workdir moves the rest. */
  configFile: string;
}

/** The `[paths]` keys that name a file inside the work directory. */
const FILE_KEYS = ['plan', 'comments', 'log', 'debug_log'] as const;

/**
 * `paths.workdir` is relative to the repo root (or absolute) and must lie inside the repo; the file names are
 * relative to the workdir and must stay inside it. Anything else is a config error naming the key: agent-collab
 * writes these files, and a `../../README` must never reach a file outside what it owns.
 */
export function resolvePaths(repoRoot: string, config: Config): Paths {
  const root = path.resolve(repoRoot);
  const workdir = path.resolve(root, config.paths.workdir);
  if (!isStrictlyInside(workdir, root)) throw outside('paths.workdir', config.paths.workdir, workdir, root);
  const inWorkdir = (name: string) => path.resolve(workdir, name);
  for (const key of FILE_KEYS) {
    const file = inWorkdir(config.paths[key]);
    if (!isStrictlyInside(file, workdir)) throw outside(`paths.${key}`, config.paths[key], file, workdir);
  }
  return {
    repoRoot: root,
    workdir,
    state: inWorkdir('state.json'),
    plan: inWorkdir(config.paths.plan),
    comments: inWorkdir(config.paths.comments),
    ledger: inWorkdir('ledger.md'),
    log: inWorkdir(config.paths.log),
    debugLog: inWorkdir(config.paths.debug_log),
    history: inWorkdir('history'),
    runs: inWorkdir('runs'),
    promptsOverride: inWorkdir('prompts'),
    configFile: path.join(root, '.agent-collab', 'config.toml'),
  };
}

/**
 * The same rule after symbolic links: the work dir and its files must not lead out of the repo through a link
 * (e.g. `.agent-collab -> /etc`). Paths that do not exist yet are checked through their nearest existing parent.
 */
export function checkPathsStayInRepo(paths: Paths, config: Config): void {
  const root = realpathOrParent(paths.repoRoot);
  const workdir = realpathOrParent(paths.workdir);
  if (!isStrictlyInside(workdir, root)) throw outside('paths.workdir', config.paths.workdir, workdir, root);
  for (const key of FILE_KEYS) {
    const file = realpathOrParent(paths[key === 'debug_log' ? 'debugLog' : key]);
    if (!isStrictlyInside(file, workdir)) throw outside(`paths.${key}`, config.paths[key], file, workdir);
  }
  const state = realpathOrParent(paths.state);
  if (!isStrictlyInside(state, workdir)) throw outside('paths.workdir', config.paths.workdir, state, workdir);
}

function isStrictlyInside(p: string, dir: string): boolean {
  const rel = path.relative(dir, p);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** The real path of `p`, or of its nearest existing parent with the rest appended. */
function realpathOrParent(p: string): string {
  const rest: string[] = [];
  let at = p;
  for (let hops = 0; ;) {
    try {
      return path.join(realpathSync(at), ...rest.reverse());
    } catch {
      // A link to nowhere yet: a write through it would create its target, so its target is what counts.
      const link = linkTarget(at);
      if (link !== null && hops++ < 40) {
        at = path.resolve(path.dirname(at), link);
        continue;
      }
      const parent = path.dirname(at);
      if (parent === at) return p;
      rest.push(path.basename(at));
      at = parent;
    }
  }
}

function linkTarget(p: string): string | null {
  try {
    return lstatSync(p).isSymbolicLink() ? readlinkSync(p) : null;
  } catch {
    return null;
  }
}

function outside(key: string, value: string, resolved: string, dir: string): UserError {
  return new UserError(
    `config error: ${key} = ${JSON.stringify(value)} leads to ${resolved}, outside ${dir}; use a path inside it`,
    EXIT.badInput,
  );
}
