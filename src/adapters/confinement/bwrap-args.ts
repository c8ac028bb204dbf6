// bubblewrap argv that confines a process to writing the repo's working tree (and temp dirs, and whatever state
// dirs its own CLI needs), with `.git`, the git dirs it points at and `.agent-collab/` read-only, and the rest of the
// file system read-only.
import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitDirsOf } from './git-dirs.js';

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

type Mode = 'rw' | 'ro' | 'tmpfs';

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
export function confinementMounts(spec: ConfinementSpec): { path: string; mode: Mode }[] {
  const repo = real(spec.repo);
  const tmpDir = real(spec.tmpDir ?? os.tmpdir());
  const entries: { path: string; mode: Mode }[] = [
    ...PRIVATE_TEMP_DIRS.map((p) => ({ path: p, mode: 'tmpfs' as Mode })),
    ...(PRIVATE_TEMP_DIRS.includes(tmpDir) ? [] : [{ path: tmpDir, mode: 'rw' as Mode }]),
    ...(spec.visible ?? []).map((p) => ({ path: real(p), mode: 'ro' as Mode })),
    ...(spec.home ? [{ path: real(spec.home), mode: 'ro' as Mode }] : []),
    { path: repo, mode: spec.repoReadOnly ? 'ro' : 'rw' },
    ...gitDirsOf(repo).map((p) => ({ path: real(p), mode: (spec.gitWritable ? 'rw' : 'ro') as Mode })),
    { path: path.resolve(repo, spec.workdir), mode: 'ro' },
    ...(spec.stateDirs ?? []).map((p) => ({ path: real(p), mode: 'rw' as Mode })),
    ...(spec.readOnly ?? []).map((p) => ({ path: real(p), mode: 'ro' as Mode })),
  ];
  const seen = new Map<string, Mode>();
  for (const e of entries) {
    if (e.path === '/') continue;
    // The same path twice: the later entry wins (state dirs come last: the program cannot run without them).
    seen.delete(e.path);
    seen.set(e.path, e.mode);
  }
  return [...seen.entries()].map(([p, mode]) => ({ path: p, mode })).sort((a, b) => depth(a.path) - depth(b.path));
}

/** `bwrap … -- command args…`: `command` runs with only the mounts above writable. */
export function bwrapArgs(spec: ConfinementSpec, command: string, args: string[]): string[] {
  const mounts = confinementMounts(spec).flatMap((m) =>
    m.mode === 'tmpfs'
      ? ['--tmpfs', m.path]
      : m.mode === 'rw'
        ? ['--bind-try', m.path, m.path]
        : ['--ro-bind-try', m.path, m.path],
  );
  const hardening = bwrapHardening().filter((a) => !(spec.sameSession && a === '--new-session'));
  return ['--ro-bind', '/', '/', '--dev', '/dev', ...mounts, ...hardening, '--', command, ...args];
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
