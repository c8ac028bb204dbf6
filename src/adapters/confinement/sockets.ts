// Unix sockets a boxed program could otherwise connect to: the file system is read-only in the box, but connecting
// to a socket is not a write. Found by a hostile review: the docker socket, the system bus (whose peer sees the box's
// uid 1000 as the real root), ssh control-master and agent sockets. Each one found where daemons put them gets
// /dev/null mounted over it in the box ("Connection refused"). /tmp, /var/tmp and /dev/shm are private already.
import { lstatSync, readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';

/** Where sockets of daemons and agents live, besides the temp dirs: /run (and /var/run when it is a dir of its own). */
const SYSTEM_ROOTS = ['/run', '/var/run'];
/** Dirs under $HOME that hold sockets: ssh control masters and agents, gpg-agent, docker (rootless / desktop). */
const HOME_DIRS = ['.ssh', '.gnupg', '.docker'];

const MAX_DEPTH = 5;
const MAX_ENTRIES = 5_000;

/**
 * Whether the box can reach entries of `dir`: root inside it maps to this process's uid, so it can search a dir that
 * uid owns or that everyone may search. A socket behind a dir it cannot search needs no mask (and bwrap could not
 * mount over it).
 */
function searchable(dir: string, uid: number): boolean {
  try {
    const s = statSync(dir);
    return s.uid === uid || (s.mode & 0o001) !== 0;
  } catch {
    return false;
  }
}

function scan(dir: string, uid: number, depth: number, budget: { left: number }, out: string[]): void {
  if (depth > MAX_DEPTH || budget.left <= 0 || !searchable(dir, uid)) return;
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (--budget.left <= 0) return;
    const p = path.join(dir, e.name);
    // Dirent types come from lstat: a symlink is neither, so the scan never loops or leaves the root.
    if (e.isSocket()) out.push(p);
    else if (e.isDirectory()) scan(p, uid, depth + 1, budget, out);
  }
}

/** Sockets in /run, /var/run and $HOME's socket dirs that a boxed program could reach (symlinked roots skipped). */
export function reachableSockets(home: string | undefined, uid = process.getuid?.() ?? 0): string[] {
  let realHome = home;
  try {
    if (home) realHome = realpathSync(home); // the box's mounts name real paths
  } catch {
    // no such home: nothing to scan there
  }
  const roots = [...SYSTEM_ROOTS, ...(realHome ? HOME_DIRS.map((d) => path.join(realHome, d)) : [])];
  const out: string[] = [];
  const budget = { left: MAX_ENTRIES };
  for (const root of roots) {
    let isRealDir = false;
    try {
      isRealDir = lstatSync(root).isDirectory(); // /var/run is usually a link to /run: scanned once
    } catch {
      // absent
    }
    if (isRealDir && searchable(path.dirname(root), uid)) scan(root, uid, 1, budget, out);
  }
  return out;
}
