// Where agent-collab keeps what it can always make again (the hook client's probe):
// ${AGENT_COLLAB_CACHE_DIR:-${XDG_CACHE_HOME:-~/.cache}/agent-collab}. Deleting it at any time is safe.
import os from 'node:os';
import path from 'node:path';

export const CACHE_DIR_ENV = 'AGENT_COLLAB_CACHE_DIR';
const OFF = new Set(['0', 'off', 'false', 'no']);

/**
 * The cache directory, or null when caching is switched off (`AGENT_COLLAB_CACHE_DIR=0`) or there is no home
 * directory to put it in. `home`: a test's own HOME.
 */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env, home: () => string = os.homedir): string | null {
  const setting = env[CACHE_DIR_ENV];
  if (setting !== undefined && OFF.has(setting.trim().toLowerCase())) return null;
  if (setting) return path.resolve(setting);
  if (env.XDG_CACHE_HOME) return path.join(env.XDG_CACHE_HOME, 'agent-collab');
  try {
    const dir = home();
    return dir ? path.join(dir, '.cache', 'agent-collab') : null;
  } catch {
    return null;
  }
}
