// Where agent-collab keeps what it can always make again (compiled code, the hook client's probe):
// ${XDG_CACHE_HOME:-~/.cache}/agent-collab. Deleting it at any time is safe.
import os from 'node:os';
import path from 'node:path';

/** The cache directory, or null when there is no home directory to put it in. `home`: a test's own HOME. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env, home: () => string = os.homedir): string | null {
  if (env.XDG_CACHE_HOME) return path.join(env.XDG_CACHE_HOME, 'agent-collab');
  try {
    const dir = home();
    return dir ? path.join(dir, '.cache', 'agent-collab') : null;
  } catch {
    return null;
  }
}
