// The files in a git dir that steer what git does next — config, hooks, info/, commondir, gitdir and any other file
// at its top — read straight from disk. agent-collab's boxed `git commit` lets the repo's hooks write the git dirs;
// these are compared right after it and put back before agent-collab runs any other git command (a planted
// `commondir` or `core.fsmonitor` would otherwise run code in agent-collab's own, unconfined git calls).
import { lstat, readdir, readFile, readlink, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileHash, putBack, type GuardedFile } from './guarded-files.js';

/**
 * What a commit itself writes at a git dir's top: the index, HEAD and its friends, the message, lock files. Refs,
 * objects and logs live in subdirectories that are not read here (the refs are compared through git).
 */
const WRITTEN_BY_A_COMMIT = new Set([
  'index',
  'HEAD',
  'ORIG_HEAD',
  'COMMIT_EDITMSG',
  'packed-refs',
  'FETCH_HEAD',
  'AUTO_MERGE',
  'gc.log',
  'gc.pid',
]);
/** Subdirectories whose every file steers git: hooks run, info/ holds exclude and attributes. */
const STEERING_DIRS = ['hooks', 'info'];
const SYMLINK_MODE = 0o120000;

function writtenByACommit(name: string): boolean {
  return WRITTEN_BY_A_COMMIT.has(name) || name.endsWith('.lock') || /^next-index-.*$/.test(name);
}

async function readEntry(abs: string): Promise<GuardedFile | null> {
  try {
    const st = await lstat(abs);
    if (st.isSymbolicLink()) return { data: Buffer.from(await readlink(abs)), mode: SYMLINK_MODE };
    if (!st.isFile()) return null;
    return { data: await readFile(abs), mode: st.mode & 0o7777 };
  } catch {
    return null; // gone meanwhile
  }
}

async function walk(dir: string, out: Map<string, GuardedFile>): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) await walk(abs, out);
    else {
      const f = await readEntry(abs);
      if (f) out.set(abs, f);
    }
  }
}

/** Every steering file of the given git dirs (absolute, real paths), by absolute path. */
export async function readGitDirFiles(gitDirs: string[]): Promise<Map<string, GuardedFile>> {
  const out = new Map<string, GuardedFile>();
  for (const dir of new Set(gitDirs)) {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (STEERING_DIRS.includes(e.name)) await walk(abs, out);
      } else if (!writtenByACommit(e.name)) {
        const f = await readEntry(abs);
        if (f) out.set(abs, f);
      }
    }
  }
  return out;
}

/**
 * Puts every steering file back as it was in `before` (a new one is removed, a changed one rewritten; what was there
 * is kept under `backupDir`). Returns one line per file for the person (named by `shown`): what changed, what was
 * done, and the backups written.
 */
export async function putBackGitDirFiles(
  before: Map<string, GuardedFile>,
  after: Map<string, GuardedFile>,
  backupDir: string,
  shown: (abs: string) => string,
): Promise<{ changes: string[]; undone: string[]; backups: string[] }> {
  const changes: string[] = [];
  const undone: string[] = [];
  const backups: string[] = [];
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  for (const abs of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const was = before.get(abs);
    const now = after.get(abs);
    if (was && now && fileHash(was) === fileHash(now) && was.mode === now.mode) continue;
    changes.push(`${shown(abs)} ${was === undefined ? 'created' : now === undefined ? 'deleted' : 'changed'}`);
    const kept = now && now.mode !== SYMLINK_MODE ? now : undefined; // a link is not copied, only removed
    if (now && !kept) await rm(abs, { force: true });
    const backup = path.join(
      backupDir,
      `${shown(abs)
        .replace(/^[./]+/, '')
        .replace(/[\\/]/g, '__')}.changed-${stamp}`,
    );
    const done = await putBack(abs, was, kept, backup);
    if (kept) backups.push(backup);
    undone.push(`${shown(abs)} ${done}${kept ? `; the changed version is in ${shown(backup)}` : ''}`);
  }
  return { changes, undone, backups };
}
