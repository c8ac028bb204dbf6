// The state an agent's write turn must leave as it was: HEAD and its branch, every ref, the worktrees, the stash,
// and agent-collab's own files. Taken right before the turn, compared after it (and before the step's commit), and
// put back when the agent changed it — without touching the working-tree files the agent edited.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describeRepoChanges, refLabel, type RepoSnapshot } from '../../core/repo-invariants.js';
import { firstLine, runGit, type GitCallOptions } from './git.js';

/** Where agent-collab keeps its files, and which of them it writes itself while an agent's turn runs. */
export interface RepoStatePaths {
  repoRoot: string;
  /** `paths.workdir` (absolute). */
  workdir: string;
  /** `<repo>/.agent-collab`, where config.toml always is (the same as workdir unless paths.workdir moved it). */
  configDir: string;
  /** Written during a turn (saved state, diagnostics, records, the lock): not compared. */
  state: string;
  debugLog: string;
  runs: string;
  history: string;
  /** log.md: agent-collab only appends to it, so what was there before the turn must still be its beginning. */
  log: string;
}

/** Everything needed to compare and restore: the snapshot, and the bytes it was taken from. */
export interface RepoBaseline {
  snapshot: RepoSnapshot;
  /** The checked files' contents, by absolute path. */
  contents: Map<string, Buffer>;
  /** The stash's entries, newest first, with their messages (to rebuild it). */
  stash: Array<{ oid: string; message: string }>;
  /** The index file's bytes: put back when HEAD moved, so the person's staging matches HEAD again. */
  index: Buffer | null;
}

const STOPPED = 'git was stopped';
/** A temp file of an atomic write (`<file>.<pid>.<hex>.tmp`): there only for the moment of a write. */
const ATOMIC_TEMP = /\.\d+\.[0-9a-f]{8}\.tmp$/;

function sha(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export class GitRepoState {
  private indexPath: string | null = null;

  constructor(private readonly paths: RepoStatePaths) {}

  /** Records what the turn must leave alone. */
  async take(signal?: AbortSignal): Promise<RepoBaseline> {
    const [git, files, index] = await Promise.all([this.gitState(signal), this.readFiles(), this.readIndex()]);
    const hashes: Record<string, string> = {};
    for (const [abs, data] of files) hashes[this.shown(abs)] = sha(data);
    return {
      snapshot: { ...git.snapshot, files: hashes },
      contents: files,
      stash: git.stash,
      index,
    };
  }

  /** The snapshot now, with log.md measured against its length in `before`, and what changed since. */
  async compare(before: RepoBaseline, signal?: AbortSignal): Promise<{ after: RepoBaseline; changes: string[] }> {
    const git = await this.gitState(signal);
    const files = await this.readFiles();
    const hashes: Record<string, string> = {};
    for (const [abs, data] of files) {
      const was = before.contents.get(abs);
      // Only appended to by agent-collab: its entries written during the turn are no change; anything else is.
      const appendedTo = abs === this.paths.log && was !== undefined && data.subarray(0, was.length).equals(was);
      hashes[this.shown(abs)] = appendedTo ? sha(was) : sha(data);
    }
    const after: RepoBaseline = {
      snapshot: { ...git.snapshot, files: hashes },
      contents: files,
      stash: git.stash,
      index: null,
    };
    return { after, changes: describeRepoChanges(before.snapshot, after.snapshot) };
  }

  /**
   * Puts back what the agent changed: refs, HEAD (the working tree stays as the agent left it; the index as it was
   * before the turn), the stash, agent-collab's files (a changed version is kept in backups/). Returns what it did and
   * what it left for the person, one line each.
   */
  async restore(before: RepoBaseline, after: RepoBaseline): Promise<string[]> {
    const notes: string[] = [];
    const b = before.snapshot;
    const a = after.snapshot;
    const keptWorktreeBranches = await this.removeNewWorktrees(b, a, notes);
    await this.restoreRefs(b, a, keptWorktreeBranches, notes);
    await this.restoreHead(b, a, notes);
    if (a.head !== b.head && before.index) {
      await this.writeIndex(before.index);
      notes.push('the index (staged changes) put back as it was before the turn');
    }
    await this.restoreStash(before, after, notes);
    await this.restoreFiles(before, after, notes);
    return notes;
  }

  // ── git ──────────────────────────────────────────────────────────────────────────────────────────────────

  private async gitState(
    signal?: AbortSignal,
  ): Promise<{ snapshot: Omit<RepoSnapshot, 'files'>; stash: RepoBaseline['stash'] }> {
    const [symref, head, refs, worktrees, stash] = await Promise.all([
      this.git(['symbolic-ref', '-q', 'HEAD'], signal),
      this.git(['rev-parse', '-q', '--verify', 'HEAD'], signal),
      this.must(['for-each-ref', '--format=%(refname)%00%(objectname)'], signal),
      this.must(['worktree', 'list', '--porcelain'], signal),
      this.git(['stash', 'list', '--format=%H%x00%gs'], signal),
    ]);
    if ([symref, head, stash].some((r) => r.stderr === STOPPED)) throw new Error(STOPPED);
    const refMap: Record<string, string> = {};
    for (const line of refs.split('\n')) {
      const [name, oid] = line.split('\0');
      if (name && oid && name !== 'refs/stash') refMap[name] = oid;
    }
    const entries = stash.exitCode === 0 ? stash.stdout.split('\n').filter(Boolean) : [];
    return {
      snapshot: {
        branch: symref.exitCode === 0 ? symref.stdout.trim() : null,
        head: head.exitCode === 0 ? head.stdout.trim() : null,
        refs: refMap,
        worktrees: worktreeList(worktrees).map((w) => w.path),
        stash: entries.map((e) => e.split('\0')[0] ?? ''),
      },
      stash: entries.map((e) => {
        const [oid = '', message = ''] = e.split('\0');
        return { oid, message };
      }),
    };
  }

  /** Worktrees the agent added go when they are clean; one with changes stays (removing it would lose them). */
  private async removeNewWorktrees(b: RepoSnapshot, a: RepoSnapshot, notes: string[]): Promise<Set<string>> {
    const kept = new Set<string>();
    const added = a.worktrees.filter((p) => !b.worktrees.includes(p));
    const branches = new Map(
      worktreeList(await this.must(['worktree', 'list', '--porcelain'])).map((w) => [w.path, w.branch]),
    );
    for (const p of added) {
      const r = await this.git(['worktree', 'remove', p]);
      if (r.exitCode === 0) notes.push(`worktree ${p} removed`);
      else {
        const branch = branches.get(p);
        if (branch) kept.add(branch);
        notes.push(
          `worktree ${p} left in place (${firstLine(r.stderr)}); remove it with \`git worktree remove --force ${p}\``,
        );
      }
    }
    for (const p of b.worktrees.filter((x) => !a.worktrees.includes(x)))
      notes.push(`worktree ${p} was removed by the agent; agent-collab cannot bring its files back`);
    return kept;
  }

  /**
   * Every ref back to its value before the turn in one transaction, each update conditional on the value the
   * agent left (a ref that moved again meanwhile is not touched). Refs the agent created are deleted: they did not
   * exist before the turn, so nothing of the person's is lost, and their commits stay in the reflog of HEAD.
   */
  private async restoreRefs(b: RepoSnapshot, a: RepoSnapshot, keep: Set<string>, notes: string[]): Promise<void> {
    const lines: string[] = [];
    const done: string[] = [];
    for (const name of [...new Set([...Object.keys(b.refs), ...Object.keys(a.refs)])].sort()) {
      const was = b.refs[name];
      const now = a.refs[name];
      if (was === now) continue;
      if (was === undefined && now !== undefined) {
        if (keep.has(name)) {
          notes.push(`${refLabel(name)} left: it is checked out in a worktree that was kept`);
          continue;
        }
        lines.push(`delete ${name} ${now}`);
        done.push(`${refLabel(name)} deleted (it was at ${now.slice(0, 7)})`);
      } else if (was !== undefined && now === undefined) {
        lines.push(`create ${name} ${was}`);
        done.push(`${refLabel(name)} recreated at ${was.slice(0, 7)}`);
      } else if (was !== undefined && now !== undefined) {
        lines.push(`update ${name} ${was} ${now}`);
        done.push(`${refLabel(name)} put back at ${was.slice(0, 7)}`);
      }
    }
    if (lines.length === 0) return;
    const r = await runGit(this.paths.repoRoot, ['update-ref', '--no-deref', '--stdin'], {
      input: `${lines.join('\n')}\n`,
    });
    if (r.exitCode === 0) notes.push(...done);
    else notes.push(`could not restore the refs (${firstLine(r.stderr)}); see \`git reflog\``);
  }

  /** HEAD back on its branch (or its detached commit); the working tree is left as the agent made it. */
  private async restoreHead(b: RepoSnapshot, a: RepoSnapshot, notes: string[]): Promise<void> {
    if (b.branch) {
      if (a.branch === b.branch) return; // the branch itself was put back with the refs
      const r = await this.git(['symbolic-ref', 'HEAD', b.branch]);
      notes.push(
        r.exitCode === 0
          ? `HEAD back on ${refLabel(b.branch)} (the working tree kept as the agent left it)`
          : `could not put HEAD back on ${refLabel(b.branch)}: ${firstLine(r.stderr)}`,
      );
    } else if (b.head && (a.branch !== null || a.head !== b.head)) {
      const r = await this.git(['update-ref', '--no-deref', 'HEAD', b.head]);
      notes.push(
        r.exitCode === 0
          ? `HEAD detached at ${b.head.slice(0, 7)} again`
          : `could not put HEAD back at ${b.head.slice(0, 7)}: ${firstLine(r.stderr)}`,
      );
    }
  }

  /**
   * The person's entries the agent dropped come back, in their order. The agent's own entries hold work it stashed
   * away from the working tree: popped back into it when that applies cleanly (HEAD is their base, no local changes
   * to tracked files), else left on the stash and said so — never dropped.
   */
  private async restoreStash(before: RepoBaseline, after: RepoBaseline, notes: string[]): Promise<void> {
    const was = before.stash;
    const now = after.stash;
    const added = now.filter((e) => !was.some((x) => x.oid === e.oid));
    const kept = now.filter((e) => was.some((x) => x.oid === e.oid));
    const intact = kept.length === was.length && kept.every((e, i) => e.oid === was[i]?.oid);
    if (!intact) {
      // Rebuilt oldest first: the person's entries, then the agent's on top.
      await this.git(['update-ref', '-d', 'refs/stash']);
      for (const e of [...was].reverse().concat([...added].reverse())) {
        const r = await this.git(['stash', 'store', '-m', e.message, e.oid]);
        if (r.exitCode !== 0) notes.push(`could not put stash entry ${e.oid.slice(0, 7)} back: ${firstLine(r.stderr)}`);
      }
      notes.push('the stash put back as it was');
    }
    for (const e of added) {
      const top = await this.git(['rev-parse', '-q', '--verify', 'refs/stash']);
      const base = await this.git(['rev-parse', '-q', '--verify', `${e.oid}^1`]);
      const head = await this.git(['rev-parse', '-q', '--verify', 'HEAD']);
      const clean = (await this.git(['diff', '--quiet', 'HEAD'])).exitCode === 0;
      const onTop = top.stdout.trim() === e.oid;
      if (onTop && clean && base.stdout.trim() === head.stdout.trim()) {
        const popped = await this.git(['stash', 'pop', '-q', '--index']);
        const again = popped.exitCode === 0 ? popped : await this.git(['stash', 'pop', '-q']);
        if (again.exitCode === 0) {
          notes.push(`the agent's stash entry (${e.message}) popped back into the working tree`);
          continue;
        }
      }
      notes.push(
        `the agent's stash entry ${e.oid.slice(0, 7)} (${e.message}) left on the stash: apply it with \`git stash pop\``,
      );
    }
  }

  // ── agent-collab's files ─────────────────────────────────────────────────────────────────────────────────

  /** Every file in the workdir (and config dir) the turn must not touch, by absolute path. */
  private async readFiles(): Promise<Map<string, Buffer>> {
    const out = new Map<string, Buffer>();
    const roots = [...new Set([this.paths.workdir, this.paths.configDir])];
    for (const root of roots) await this.walk(root, out);
    return out;
  }

  private async walk(dir: string, out: Map<string, Buffer>): Promise<void> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return; // not there (yet)
    }
    for (const e of entries) {
      const abs = path.join(dir, e.name);
      if (this.writtenDuringTurn(abs) || out.has(abs)) continue;
      if (e.isDirectory()) await this.walk(abs, out);
      else if (e.isFile()) {
        const data = await readFile(abs).catch(() => null);
        if (data) out.set(abs, data);
      }
    }
  }

  /** agent-collab's own writes while a turn runs: the state, diagnostics, the run's records, the lock. */
  private writtenDuringTurn(abs: string): boolean {
    const p = this.paths;
    const base = path.basename(abs);
    const inWorkdir = path.dirname(abs) === p.workdir;
    return (
      abs === p.state ||
      abs === p.runs ||
      abs === p.history ||
      abs === p.debugLog ||
      (abs.startsWith(`${p.debugLog}.`) && /^\d+$/.test(abs.slice(p.debugLog.length + 1))) ||
      ATOMIC_TEMP.test(base) ||
      (inWorkdir && (base === 'agent-collab.lock' || base === 'agent-collab.pid'))
    );
  }

  private async restoreFiles(before: RepoBaseline, after: RepoBaseline, notes: string[]): Promise<void> {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const backups = path.join(this.paths.workdir, 'backups');
    const all = new Set([...before.contents.keys(), ...after.contents.keys()]);
    for (const abs of [...all].sort()) {
      const shown = this.shown(abs);
      if (before.snapshot.files[shown] === after.snapshot.files[shown]) continue;
      const was = before.contents.get(abs);
      const now = after.contents.get(abs);
      let saved = '';
      if (now !== undefined) {
        // The changed version is kept, not deleted: agent-collab cannot tell the agent's edit from the person's.
        const name = `${path.relative(this.paths.workdir, abs).replace(/[\\/]/g, '__')}.changed-${stamp}`;
        await mkdir(backups, { recursive: true });
        await writeFile(path.join(backups, name), now);
        saved = `; the changed version is in ${this.shown(path.join(backups, name))}`;
      }
      if (was !== undefined) {
        await writeAtomically(abs, was);
        notes.push(`${shown} restored${saved}`);
      } else {
        await rm(abs, { force: true });
        notes.push(`${shown} removed${saved}`);
      }
    }
  }

  // ── helpers ──────────────────────────────────────────────────────────────────────────────────────────────

  /** How a file is named to the person: relative to the repo (".agent-collab/plan.md"), else absolute. */
  private shown(abs: string): string {
    const rel = path.relative(this.paths.repoRoot, abs);
    return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : abs;
  }

  private async indexFile(): Promise<string> {
    this.indexPath ??= path.resolve(
      this.paths.repoRoot,
      (await this.must(['rev-parse', '--git-path', 'index'])).trim(),
    );
    return this.indexPath;
  }

  private async readIndex(): Promise<Buffer | null> {
    return readFile(await this.indexFile()).catch(() => null);
  }

  private async writeIndex(data: Buffer): Promise<void> {
    await writeAtomically(await this.indexFile(), data);
  }

  private git(args: string[], signal?: AbortSignal): ReturnType<typeof runGit> {
    const opts: GitCallOptions = signal ? { signal } : {};
    return runGit(this.paths.repoRoot, args, opts);
  }

  private async must(args: string[], signal?: AbortSignal): Promise<string> {
    const r = await this.git(args, signal);
    if (r.exitCode !== 0)
      throw new Error(`could not read the repository's state (git ${args[0]}): ${firstLine(r.stderr || r.stdout)}`);
    return r.stdout;
  }
}

/** `git worktree list --porcelain`: each worktree's path and the branch checked out there. */
function worktreeList(out: string): Array<{ path: string; branch: string | null }> {
  return out
    .split('\n\n')
    .map((block) => block.split('\n'))
    .filter((lines) => lines[0]?.startsWith('worktree '))
    .map((lines) => ({
      path: (lines[0] ?? '').slice('worktree '.length),
      branch: lines.find((l) => l.startsWith('branch '))?.slice('branch '.length) ?? null,
    }));
}

async function writeAtomically(file: string, data: Buffer): Promise<void> {
  const tmp = `${file}.${process.pid}.${Math.floor(Math.random() * 0xffffffff)
    .toString(16)
    .padStart(8, '0')}.tmp`;
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(tmp, data);
  await rename(tmp, file);
}
