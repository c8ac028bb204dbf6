// The files a write turn must not touch: agent-collab's own (its workdir and config dir, less what it writes itself
// while a turn runs) and git's config and hooks. Read with their mode; put back as they were, the changed version
// kept in backups/.
import { createHash } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface GuardedFile {
  data: Buffer;
  mode: number;
}

/** agent-collab's places; the files it writes itself while a turn runs are not guarded. */
export interface GuardedPaths {
  workdir: string;
  configDir: string;
  state: string;
  /**
   * ledger.md (issue 19): agent-collab renders it from the state whenever the ledger changes, during a step too (a
   * fix attempt's report, the step's code review), and never reads it back. Missing: no ledger file.
   */
  ledger?: string;
  debugLog: string;
  runs: string;
  history: string;
}

/** A temp file of an atomic write (`<file>.<pid>.<hex>.tmp`): there only for the moment of a write. */
const ATOMIC_TEMP = /\.\d+\.[0-9a-f]{8}\.tmp$/;
const EXECUTABLE = 0o111;

/** Content and whether it can be run (a hook made executable is a change). */
export function fileHash(f: GuardedFile): string {
  return createHash('sha256')
    .update(f.data)
    .update(f.mode & EXECUTABLE ? 'x' : '-')
    .digest('hex');
}

/** Every guarded file, by absolute path: under agent-collab's dirs, git's `config` file and its `hooks` dir (if any). */
export async function readGuardedFiles(
  paths: GuardedPaths,
  git: { config: string; hooks: string | null },
): Promise<Map<string, GuardedFile>> {
  const out = new Map<string, GuardedFile>();
  for (const root of new Set([paths.workdir, paths.configDir])) await walk(paths, root, out);
  const config = await readOne(git.config);
  if (config) out.set(git.config, config);
  if (git.hooks) await walk(paths, git.hooks, out);
  return out;
}

async function walk(paths: GuardedPaths, dir: string, out: Map<string, GuardedFile>): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return; // not there (yet)
  }
  for (const e of entries) {
    const abs = path.join(dir, e.name);
    if (writtenDuringTurn(paths, abs) || out.has(abs)) continue;
    if (e.isDirectory()) await walk(paths, abs, out);
    else if (e.isFile()) {
      const f = await readOne(abs);
      if (f) out.set(abs, f);
    }
  }
}

async function readOne(abs: string): Promise<GuardedFile | null> {
  try {
    const [data, st] = await Promise.all([readFile(abs), stat(abs)]);
    return { data, mode: st.mode & 0o7777 };
  } catch {
    return null; // gone meanwhile
  }
}

/** agent-collab's own writes while a turn runs: the state, diagnostics, the run's records, the lock, the input history. */
function writtenDuringTurn(p: GuardedPaths, abs: string): boolean {
  const base = path.basename(abs);
  const inWorkdir = path.dirname(abs) === p.workdir;
  return (
    abs === p.state ||
    abs === p.ledger ||
    abs === p.runs ||
    abs === p.history ||
    abs === p.debugLog ||
    (abs.startsWith(`${p.debugLog}.`) && /^\d+$/.test(abs.slice(p.debugLog.length + 1))) ||
    ATOMIC_TEMP.test(base) ||
    (inWorkdir && (base === 'agent-collab.lock' || base === 'agent-collab.pid')) ||
    writtenByQueueOrClean(p, abs)
  );
}

/**
 * What a `queue --parallel` or `clean` working beside this run writes into the person's `.agent-collab/` (issue 21):
 * the reports, the instructions it filed, its lock, the reports `clean` keeps. Outputs only: the instructions
 * waiting in `inbox/` stay guarded (a later `queue --auto` runs them), and one the queue files away is told from a
 * deleted one by its bytes in `done/` or `failed/` (movedInstruction).
 */
function writtenByQueueOrClean(p: GuardedPaths, abs: string): boolean {
  const inbox = path.join(p.configDir, 'inbox');
  return (
    [path.join(p.configDir, 'reports'), path.join(p.configDir, 'worktree-runs'), ...filedInstructionDirs(p)].includes(
      abs,
    ) ||
    (path.dirname(abs) === inbox && ['agent-collab.lock', 'agent-collab.pid'].includes(path.basename(abs)))
  );
}

function filedInstructionDirs(p: GuardedPaths): string[] {
  return ['done', 'failed'].map((d) => path.join(p.configDir, 'inbox', d));
}

/** `abs`, an instruction waiting in the inbox, was filed by the queue: the same bytes are in `done/` or `failed/`. */
export async function movedInstruction(p: GuardedPaths, abs: string, was: GuardedFile): Promise<boolean> {
  if (path.dirname(abs) !== path.join(p.configDir, 'inbox') || !abs.endsWith('.md')) return false;
  const base = path.basename(abs, '.md');
  for (const dir of filedInstructionDirs(p)) {
    const names = await readdir(dir).catch(() => [] as string[]);
    // moveInto's names: `<name>.md`, or `<name>-<n>.md` when that was taken.
    const filed = (x: string): boolean =>
      x === `${base}.md` || (x.startsWith(`${base}-`) && /^\d+\.md$/.test(x.slice(base.length + 1)));
    for (const n of names.filter(filed)) {
      const f = await readOne(path.join(dir, n));
      if (f?.data.equals(was.data)) return true;
    }
  }
  return false;
}

/**
 * Puts `abs` back as `was` (absent: removes it). What is there now is first copied to `backup`: agent-collab cannot
 * tell the agent's edit from the person's, so neither is thrown away. Resolves to what was done, for the person.
 */
export async function putBack(
  abs: string,
  was: GuardedFile | undefined,
  now: GuardedFile | undefined,
  backup: string,
): Promise<'restored' | 'removed'> {
  if (now !== undefined) {
    await mkdir(path.dirname(backup), { recursive: true });
    await writeFile(backup, now.data, { mode: 0o600 });
  }
  if (was === undefined) {
    await rm(abs, { force: true });
    return 'removed';
  }
  await writeAtomically(abs, was.data, was.mode);
  return 'restored';
}

/** Temp file, then rename: a reader (git) sees the old or the new content, never half of it. */
export async function writeAtomically(file: string, data: Buffer, mode?: number): Promise<void> {
  const hex = Math.floor(Math.random() * 0xffffffff)
    .toString(16)
    .padStart(8, '0');
  const tmp = `${file}.${process.pid}.${hex}.tmp`;
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(tmp, data);
  if (mode !== undefined) await chmod(tmp, mode);
  await rename(tmp, file);
}
