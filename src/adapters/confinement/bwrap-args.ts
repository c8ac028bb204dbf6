// bubblewrap argv that confines a process to writing the repo's working tree (and temp dirs, and whatever state
// dirs its own CLI needs), with `.git`, the git dirs it points at and `.agent-collab/` read-only, and the rest of the
// file system read-only.
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitDirsOf, submoduleGitLinks } from './git-dirs.js';
import { reachableSockets } from './sockets.js';

export const BWRAP = 'bwrap';

export interface ConfinementSpec {
  /** The repo's working tree (root): writable. */
  repo: string;
  /** agent-collab's work dir inside the repo (`.agent-collab`): read-only. */
  workdir: string;
  /** Other dirs the confined program itself must write (e.g. codex's CODEX_HOME): writable. */
  stateDirs?: string[];
  /** The user's home: read-only even when it lies inside a temp dir (as in tests). */
  home?: string;
  /** Paths the program must see that may lie under a temp dir (its binary, its config): read-only. */
  visible?: string[];
  /** The process's TMPDIR when it is not /tmp: writable (the real dir, so programs can share files through it). */
  tmpDir?: string;
  /** Makes the repo read-only as well (read-only turns). */
  repoReadOnly?: boolean;
  /** Dirs the box shows through a private file system of their own (see PrivateDir); applied after everything else. */
  privateDirs?: PrivateDir[];
  /** Dirs replaced by an empty, writable file system of their own: what the program writes there vanishes with the box. */
  scratchDirs?: string[];
  /** Unix sockets to make unreachable in the box; default: those found where daemons keep them (sockets.ts). */
  sockets?: string[];
  /** Makes the git dirs writable (agent-collab's own boxed `git commit`: objects, index, refs, logs). */
  gitWritable?: boolean;
  /** Paths that stay read-only whatever covers them (the boxed commit's git config and hooks): bound last. */
  readOnly?: string[];
  /**
   * Keeps the box in its caller's session and process group, so that a stop's SIGTERM to the group reaches the
   * program (git then removes its lock files). Only for a caller that started it in a session of its own, without
   * a terminal (agent-collab's git calls): there is no terminal to type into.
   */
  sameSession?: boolean;
}

/**
 * A dir the box replaces by an empty private file system that shows the real dir's entries: read-only, except the
 * ones named in `keep` (writable: their changes reach the disk). New files can be created there only when `scratch`
 * is set, and they vanish with the box. Used for claude's config dir (its sessions must persist, its settings must
 * not change) and for git dirs in which claude's own sandbox must mount over files git does not have.
 */
export interface PrivateDir {
  path: string;
  /** Entries bound writable (missing ones stay missing). */
  keep?: string[];
  /** Entries not shown at all: the program gets fresh, private ones (needs `scratch`). */
  hide?: string[];
  /** When set, the only entries shown (the rest are not there at all). */
  only?: string[];
  /** The private file system stays writable: what the program creates there vanishes with the box. */
  scratch?: boolean;
  /** Empty read-only files put where the real dir has no such entry, for a program in the box to mount over. */
  mountPoints?: string[];
}

type Mode = 'rw' | 'ro' | 'tmpfs' | 'private';

/** Temp dirs get an empty private file system: writable, and nothing written there reaches the disk. */
export const PRIVATE_TEMP_DIRS = ['/tmp', '/var/tmp', '/dev/shm'];

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

function depth(p: string): number {
  return p.split('/').filter(Boolean).length;
}

/**
 * The mounts in the order bwrap must apply them: a later mount covers an earlier one at or under its path, so
 * shallower paths come first (e.g. a private /tmp, then a read-only HOME under it, then a writable repo under
 * that, then its read-only `.git`). A bind's source is always the real path on the host, so a repo under /tmp stays
 * reachable once /tmp is private. At equal depth the later entry in the list wins.
 */
export function confinementMounts(spec: ConfinementSpec): { path: string; mode: Mode; dir?: PrivateDir }[] {
  const repo = real(spec.repo);
  const tmpDir = real(spec.tmpDir ?? os.tmpdir());
  const entries: { path: string; mode: Mode; dir?: PrivateDir }[] = [
    ...PRIVATE_TEMP_DIRS.map((p) => ({ path: p, mode: 'tmpfs' as Mode })),
    ...(PRIVATE_TEMP_DIRS.includes(tmpDir) ? [] : [{ path: tmpDir, mode: 'rw' as Mode }]),
    ...(spec.visible ?? []).map((p) => ({ path: real(p), mode: 'ro' as Mode })),
    ...(spec.home ? [{ path: real(spec.home), mode: 'ro' as Mode }] : []),
    { path: repo, mode: spec.repoReadOnly ? 'ro' : 'rw' },
    ...gitDirsOf(repo).map((p) => ({ path: real(p), mode: (spec.gitWritable ? 'rw' : 'ro') as Mode })),
    ...submoduleGitLinks(repo).map((p) => ({ path: p, mode: 'ro' as Mode })),
    { path: path.resolve(repo, spec.workdir), mode: 'ro' },
    ...(spec.stateDirs ?? []).map((p) => ({ path: real(p), mode: 'rw' as Mode })),
    ...(spec.privateDirs ?? [])
      .filter((d) => existsSync(d.path))
      .map((d) => ({ path: real(d.path), mode: 'private' as Mode, dir: d })),
    ...(spec.scratchDirs ?? []).map((p) => ({ path: real(p), mode: 'tmpfs' as Mode })),
    ...(spec.readOnly ?? []).map((p) => ({ path: real(p), mode: 'ro' as Mode })),
  ];
  const seen = new Map<string, { mode: Mode; dir?: PrivateDir }>();
  for (const e of entries) {
    if (e.path === '/') continue;
    // The same path twice: the later entry wins (state dirs come last: the program cannot run without them).
    seen.delete(e.path);
    seen.set(e.path, { mode: e.mode, ...(e.dir ? { dir: e.dir } : {}) });
  }
  return [...seen.entries()].map(([p, m]) => ({ path: p, ...m })).sort((a, b) => depth(a.path) - depth(b.path));
}

/**
 * A private dir's bwrap arguments: a tmpfs over it, then each real entry bound into it (a bind's source is the real
 * path on the host), the mount points, and — unless it is scratch space — the tmpfs made read-only. Entries created
 * in the real dir after the box started are not seen in it.
 */
function privateDirArgs(at: string, dir: PrivateDir): string[] {
  const args = ['--tmpfs', at];
  let names: string[] = [];
  try {
    names = readdirSync(at).sort();
  } catch {
    // unreadable: shown empty
  }
  for (const name of names) {
    if ((dir.scratch && dir.hide?.includes(name)) || (dir.only && !dir.only.includes(name))) continue;
    const p = path.join(at, name);
    args.push(dir.keep?.includes(name) ? '--bind-try' : '--ro-bind-try', p, p);
  }
  for (const name of dir.mountPoints ?? [])
    if (!names.includes(name)) args.push('--ro-bind', '/dev/null', path.join(at, name));
  if (!dir.scratch) args.push('--remount-ro', at);
  return args;
}

/** `bwrap … -- command args…`: `command` runs with only the mounts above writable. */
export function bwrapArgs(spec: ConfinementSpec, command: string, args: string[]): string[] {
  const mounts = confinementMounts(spec).flatMap((m) =>
    m.mode === 'private' && m.dir
      ? privateDirArgs(m.path, m.dir)
      : m.mode === 'tmpfs'
        ? ['--tmpfs', m.path]
        : m.mode === 'rw'
          ? ['--bind-try', m.path, m.path]
          : ['--ro-bind-try', m.path, m.path],
  );
  return [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    ...mounts,
    ...socketMasks(spec),
    ...bwrapHardening().filter((a) => !(spec.sameSession && a === '--new-session')),
    '--',
    command,
    ...args,
  ];
}

/**
 * /dev/null over each reachable socket, after every other mount (so none covers a mask). A socket whose nearest
 * covering mount is a file system of the box's own (a private /tmp, a private dir) is not there to mask.
 */
function socketMasks(spec: ConfinementSpec): string[] {
  const mounts = confinementMounts(spec);
  const covering = (p: string) => mounts.filter((m) => p.startsWith(`${m.path}/`)).at(-1);
  return (spec.sockets ?? reachableSockets(spec.home))
    .filter((sock) => {
      const m = covering(sock);
      return m === undefined || (m.mode !== 'tmpfs' && m.mode !== 'private');
    })
    .flatMap((sock) => ['--ro-bind', '/dev/null', sock]);
}

/** Not root inside the box: a root without capabilities could still not build a sandbox of its own (codex does). */
const UNPRIVILEGED_ID = '1000';

/**
 * What keeps a program from leaving the box even when agent-collab runs as root (found by a hostile review: with
 * root's capabilities a command could `mount -o remount,rw /`, write through /proc/<pid>/root, write /proc/sys and
 * signal processes outside): its own user namespace (root is mapped to an ordinary id), no capabilities, its own
 * pid namespace (no /proc view of the host; every process in the box dies with it, so nothing it leaves running
 * can write the tree after agent-collab's check), its own session (no typing into the terminal), and it dies when
 * agent-collab does.
 */
export function bwrapHardening(): string[] {
  const root = process.getuid?.() === 0;
  return [
    '--unshare-user',
    ...(root ? ['--uid', UNPRIVILEGED_ID, '--gid', UNPRIVILEGED_ID] : []),
    '--unshare-pid',
    '--unshare-ipc',
    '--cap-drop',
    'ALL',
    '--proc',
    '/proc',
    '--new-session',
    '--die-with-parent',
  ];
}
