// opencode's own data, cache and state dirs for agent-collab's turns. Its turns run with an agent-collab-owned home
// per repo (XDG_DATA_HOME/XDG_CACHE_HOME/XDG_STATE_HOME in its env), never the person's: a turn wrote an executable
// `rg` into opencode's bin/ and the person's own unboxed opencode later ran it for its grep tool (1.18.33, measured),
// and the person's opencode.db holds all their sessions. In the box the person's dirs show nothing but their login
// (auth.json, read-only); in the private home bin/ and node_modules/ (what opencode downloads and runs) start empty
// on every turn.
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PrivateDir } from '../confinement/bwrap-args.js';
import type { OuterBox } from '../confinement/outer-box.js';
import { agentHome, pruneGoneHomes, recordHomeRepo } from '../agent-homes.js';

/** opencode's three dirs: `<XDG base>/opencode` each. */
export interface OpencodeDirs {
  data: string;
  cache: string;
  state: string;
}

/** The person's login file in opencode's data dir (`opencode auth login`). */
export const OPENCODE_AUTH_FILE = 'auth.json';

/**
 * What opencode downloads into its cache dir and runs (1.18.33 `debug paths`: bin = <cache>/opencode/bin, where it
 * puts ripgrep when none is on PATH; node_modules: provider packages). Fresh each turn, so no turn leaves one there.
 */
export const OPENCODE_SCRATCH = ['bin', 'node_modules'];

/** The person's own opencode dirs, where their own opencode keeps its database, downloads and logs. */
export function personalOpencodeDirs(env: NodeJS.ProcessEnv): OpencodeDirs {
  const home = env.HOME ?? os.homedir();
  return {
    data: path.join(env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'opencode'),
    cache: path.join(env.XDG_CACHE_HOME ?? path.join(home, '.cache'), 'opencode'),
    state: path.join(env.XDG_STATE_HOME ?? path.join(home, '.local', 'state'), 'opencode'),
  };
}

/** agent-collab's opencode home for `repo`; one per repo, so sessions resume across the turns of a run. */
export function opencodeHome(env: NodeJS.ProcessEnv, repo: string): string {
  return agentHome(env, 'opencode', repo);
}

/** The XDG bases opencode gets in its env (its dirs are `<base>/opencode`). */
export function opencodeXdg(home: string): Record<'XDG_DATA_HOME' | 'XDG_CACHE_HOME' | 'XDG_STATE_HOME', string> {
  return {
    XDG_DATA_HOME: path.join(home, 'data'),
    XDG_CACHE_HOME: path.join(home, 'cache'),
    XDG_STATE_HOME: path.join(home, 'state'),
  };
}

/** opencode's dirs inside agent-collab's home. */
export function ownOpencodeDirs(home: string): OpencodeDirs {
  const xdg = opencodeXdg(home);
  return {
    data: path.join(xdg.XDG_DATA_HOME, 'opencode'),
    cache: path.join(xdg.XDG_CACHE_HOME, 'opencode'),
    state: path.join(xdg.XDG_STATE_HOME, 'opencode'),
  };
}

/**
 * Makes the home's dirs (the box mounts over them) and links the person's login into it, anew each turn: a turn that
 * replaced the link with a file of its own does not keep it.
 */
export function prepareOpencodeHome(env: NodeJS.ProcessEnv, repo: string): string {
  const home = opencodeHome(env, repo);
  const own = ownOpencodeDirs(home);
  for (const dir of [own.data, own.state, ...OPENCODE_SCRATCH.map((n) => path.join(own.cache, n))])
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  const link = path.join(own.data, OPENCODE_AUTH_FILE);
  rmSync(link, { recursive: true, force: true });
  const login = path.join(personalOpencodeDirs(env).data, OPENCODE_AUTH_FILE);
  if (existsSync(login)) symlinkSync(login, link);
  recordHomeRepo(home, repo);
  pruneGoneHomes(home);
  return home;
}

/**
 * The box around an opencode turn: its own dirs writable (bin/ and node_modules/ fresh), the person's opencode dirs
 * showing only their login, read-only, and the other repos' homes not at all. The global config dir (and the one
 * OPENCODE_CONFIG_DIR names) are read-only: a turn cannot leave a plugin there; so is the OPENCODE_CONFIG file.
 */
export function opencodeHomeBox(env: NodeJS.ProcessEnv, repo: string, configDirs: string[]): OuterBox {
  const home = opencodeHome(env, repo);
  const own = ownOpencodeDirs(home);
  const person = personalOpencodeDirs(env);
  const privateDirs: PrivateDir[] = [
    ...configDirs.map((dir) => ({ path: dir })),
    { path: person.data, only: [OPENCODE_AUTH_FILE] },
    { path: person.cache, only: [] },
    { path: person.state, only: [] },
    { path: path.dirname(home), only: [path.basename(home)] },
  ];
  return {
    stateDirs: [own.data, own.cache, own.state],
    scratchDirs: OPENCODE_SCRATCH.map((n) => path.join(own.cache, n)),
    privateDirs,
    ...(env.OPENCODE_CONFIG ? { readOnly: [path.resolve(env.OPENCODE_CONFIG)] } : {}),
  };
}
