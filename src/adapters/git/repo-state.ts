// The state an agent's write turn must leave as it was: HEAD and its branch, every ref, the worktrees, the stash,
// and agent-collab's own files. Taken right before the turn, compared after it (and before the step's commit), and
// put back when the agent changed it — without touching the working-tree files the agent edited.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describeRepoChanges, refLabel, type RepoSnapshot } from '../../core/repo-invariants.js';
import { dotGitHash, guardsDotGit, putBackDotGit, readDotGit, type DotGit } from './dot-git.js';
import { firstLine, runGit, type GitCallOptions } from './git.js';
import { GitPathsOnce } from './git-paths.js';
import {
  otherRunsAt,
  otherRunsSince,
  runWorktreesDir,
  withoutOtherRuns,
  type OtherRuns,
  type WorktreeAt,
} from './run-worktree.js';
import {
  fileHash,
  movedInstruction,
  putBack,
  readGuardedFiles,
  writeAtomically,
  type GuardedFile,
  type GuardedPaths,
} from './guarded-files.js';

/** Where agent-collab keeps its files, and which of them it writes itself while an agent's turn runs. */
export interface RepoStatePaths extends GuardedPaths {
  repoRoot: string;
  /** log.md: agent-collab only appends to it, so what was there before the turn must still be its beginning. */
  log: string;
}

/** Everything needed to compare and restore: the snapshot, and the bytes it was taken from. */
export interface RepoBaseline {
  snapshot: RepoSnapshot;
  /** The guarded files' contents and modes, by absolute path. */
  contents: Map<string, GuardedFile>;
  /** The stash's entries, newest first, with their messages (to rebuild it). */
  stash: Array<{ oid: string; message: string }>;
  /** The index file's bytes: put back when HEAD moved, so the person's staging matches HEAD again. */
  index: Buffer | null;
  /** `<repo>/.git` itself when it is a symlink or a gitfile (dot-git.ts). */
  dotGit?: DotGit;
  /** Other runs' branches and worktrees, left out of `snapshot` (run-worktree.ts). */
  otherRuns?: OtherRuns;
}

interface GitState {
  /** Every ref and worktree, other runs' included. */
  snapshot: Omit<RepoSnapshot, 'files' | 'gitFiles'>;
  stash: RepoBaseline['stash'];
  worktrees: WorktreeAt[];
  main: string;
}

const STOPPED = 'git was stopped';

export class GitRepoState {
  private places: Promise<GitPlaces | null> | null = null;
  /** What compare() already did about a replaced `.git` link, for restore() to report. */
  private dotGitNotes: string[] = [];

  constructor(
    private readonly paths: RepoStatePaths,
    /** Where git keeps HEAD, the index, config and hooks: read once per session (git-paths.ts). */
    private readonly gitPaths: GitPathsOnce = new GitPathsOnce(paths.repoRoot),
  ) {}

  /** Records what the turn must leave alone. */
  async take(signal?: AbortSignal): Promise<RepoBaseline> {
    const dotGit = await readDotGit(this.paths.repoRoot);
    const [git, files, index] = await Promise.all([this.gitState(signal), this.readFiles(), this.readIndex()]);
    const hashes = this.hashed(files, () => null);
    if (guardsDotGit(dotGit)) hashes.gitFiles['.git'] = dotGitHash(dotGit);
    const otherRuns = otherRunsAt(git.worktrees, git.main, this.paths.repoRoot);
    return {
      snapshot: { ...withoutOtherRuns(git.snapshot, otherRuns), ...hashes },
      contents: files,
      stash: git.stash,
      index,
      dotGit,
      otherRuns,
    };
  }

  /** The snapshot now, with log.md measured against its length in `before`, and what changed since. */
  async compare(before: RepoBaseline, signal?: AbortSignal): Promise<{ after: RepoBaseline; changes: string[] }> {
    // Before any git command: a replaced `.git` link would point that command at the agent's git dir.
    const dotGit = await readDotGit(this.paths.repoRoot);
    const dotGitChanged =
      before.dotGit && guardsDotGit(before.dotGit) && dotGitHash(dotGit) !== dotGitHash(before.dotGit);
    if (dotGitChanged) this.dotGitNotes.push(await putBackDotGit(this.paths.repoRoot, before.dotGit!, dotGit));
    const git = await this.gitState(signal);
    const files = await this.readFiles();
    const hashes = this.hashed(files, (abs, f) => {
      const was = before.contents.get(abs);
      // Only appended to by agent-collab: its entries written during the turn are no change; anything else is.
      const appended =
        abs === this.paths.log && was !== undefined && f.data.subarray(0, was.data.length).equals(was.data);
      return appended ? fileHash(was) : null;
    });
    if (before.dotGit && guardsDotGit(before.dotGit)) hashes.gitFiles['.git'] = dotGitHash(dotGit);
    for (const [abs, was] of before.contents)
      if (!files.has(abs) && (await movedInstruction(this.paths, abs, was)))
        hashes.files[this.shown(abs)] = fileHash(was);
    const otherRuns = otherRunsSince(
      before.otherRuns ?? { refs: [], worktrees: [] },
      Object.keys(before.snapshot.refs),
      {
        refs: Object.keys(git.snapshot.refs),
        worktrees: git.worktrees,
        runsDirThere: await exists(runWorktreesDir(git.main)),
      },
      git.main,
      this.paths.repoRoot,
    );
    const after: RepoBaseline = {
      snapshot: { ...withoutOtherRuns(git.snapshot, otherRuns), ...hashes },
      contents: files,
      stash: git.stash,
      index: null,
      ...(before.dotGit ? { dotGit: before.dotGit } : {}),
      otherRuns,
    };
    return { after, changes: describeRepoChanges(before.snapshot, after.snapshot) };
  }

  /**
   * Puts back what the agent changed: refs, HEAD (the working tree stays as the agent left it; the index as it was
   * before the turn), the stash, agent-collab's files (a changed version is kept in backups/). Returns what it did and
   * what it left for the person, one line each.
   */
  async restore(before: RepoBaseline, after: RepoBaseline): Promise<string[]> {
    const notes: string[] = this.dotGitNotes.splice(0);
    const b = before.snapshot;
    const a = after.snapshot;
    // Files first: a hook or a git config the agent planted (core.fsmonitor, core.hooksPath) must be gone before
    // git runs anything that would start it.
    await this.restoreFiles(before, after, notes);
    const keptWorktreeBranches = await this.removeNewWorktrees(b, a, notes);
    await this.restoreRefs(b, a, keptWorktreeBranches, notes);
    await this.restoreHead(b, a, notes);
    if (a.head !== b.head && before.index) {
      await this.writeIndex(before.index);
      notes.push('the index (staged changes) put back as it was before the turn');
    }
    await this.restoreStash(before, after, notes);
    return notes;
  }

  /** The files' hashes by the path shown, agent-collab's apart from git's; `same` may say a file counts as unchanged. */
  private hashed(
    files: Map<string, GuardedFile>,
    same: (abs: string, f: GuardedFile) => string | null,
  ): Pick<RepoSnapshot, 'files' | 'gitFiles'> {
    const out: Pick<RepoSnapshot, 'files' | 'gitFiles'> = { files: {}, gitFiles: {} };
    const ours = [this.paths.workdir, this.paths.configDir].map((d) => d + path.sep);
    for (const [abs, f] of files) {
      const kind = ours.some((d) => abs.startsWith(d)) ? 'files' : 'gitFiles';
      out[kind][this.shown(abs)] = same(abs, f) ?? fileHash(f);
    }
    return out;
  }

  // ── git ──────────────────────────────────────────────────────────────────────────────────────────────────

  private async gitState(signal?: AbortSignal): Promise<GitState> {
    // One git process (the refs, packed or loose) and plain reads of the files git keeps HEAD, the worktrees and the
    // stash's reflog in: a snapshot is taken four times a step, and each git process costs ~15 ms (measured).
    const [places, refs] = await Promise.all([
      this.gitPlaces(),
      this.must(['for-each-ref', '--format=%(refname)%00%(objectname)'], signal),
    ]);
    if (!places) return this.gitStateByCommands(refs, signal);
    const [headFile, worktrees, stashLog] = await Promise.all([
      readFile(places.head, 'utf8').catch(() => ''),
      linkedWorktrees(places.worktrees),
      readFile(places.stashLog, 'utf8').catch(() => ''),
    ]);
    const allRefs = refMapOf(refs, true);
    const symbolic = /^ref: (\S+)/.exec(headFile)?.[1] ?? null;
    const detached = /^[0-9a-f]{40,64}$/.exec(headFile.trim())?.[0] ?? null;
    const stash = stashLog
      .split('\n')
      .filter(Boolean)
      .reverse()
      .map((line) => ({ oid: line.split(' ')[1] ?? '', message: line.slice(line.indexOf('\t') + 1) }));
    return {
      snapshot: {
        branch: symbolic,
        head: symbolic ? (allRefs[symbolic] ?? null) : detached,
        refs: refMapOf(refs, false),
        worktrees: [places.main, ...worktrees.map((w) => w.path)],
        stash: stash.map((e) => e.oid),
      },
      stash,
      worktrees,
      main: places.main,
    };
  }

  /**
   * Where git keeps HEAD, the worktrees and the stash's reflog; null when the refs are not plain files (the reftable
   * format), and then git is asked for each.
   */
  private gitPlaces(): Promise<GitPlaces | null> {
    this.places ??= this.gitPaths.get().then(
      async (p) => {
        if (await exists(path.join(p.commonDir, 'reftable'))) return null;
        const main = worktreeList(await this.must(['worktree', 'list', '--porcelain']))[0]?.path ?? p.toplevel;
        return {
          head: p.gitPath('HEAD'),
          stashLog: p.gitPath('logs/refs/stash'),
          worktrees: path.join(p.commonDir, 'worktrees'),
          main,
        };
      },
      (err: unknown) => {
        this.places = null;
        throw err;
      },
    );
    return this.places;
  }

  /** The same snapshot through git commands, for refs git does not keep as files. */
  private async gitStateByCommands(refs: string, signal?: AbortSignal): Promise<GitState> {
    const [symref, head, worktrees, stash] = await Promise.all([
      this.git(['symbolic-ref', '-q', 'HEAD'], signal),
      this.git(['rev-parse', '-q', '--verify', 'HEAD'], signal),
      this.must(['worktree', 'list', '--porcelain'], signal),
      this.git(['stash', 'list', '--format=%H%x00%gs'], signal),
    ]);
    if ([symref, head, stash].some((r) => r.stderr === STOPPED)) throw new Error(STOPPED);
    const entries = stash.exitCode === 0 ? stash.stdout.split('\n').filter(Boolean) : [];
    const listed = worktreeList(worktrees);
    return {
      snapshot: {
        branch: symref.exitCode === 0 ? symref.stdout.trim() : null,
        head: head.exitCode === 0 ? head.stdout.trim() : null,
        refs: refMapOf(refs, false),
        worktrees: listed.map((w) => w.path),
        stash: entries.map((e) => e.split('\0')[0] ?? ''),
      },
      worktrees: listed,
      main: listed[0]?.path ?? this.paths.repoRoot,
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

  /** Every guarded file (guarded-files.ts): agent-collab's, and git's config and hooks. */
  private async readFiles(): Promise<Map<string, GuardedFile>> {
    const p = await this.gitPaths.get();
    // Hooks are guarded wherever core.hooksPath puts them, the working tree included (e.g. .husky/): agent-collab's
    // own `git commit` runs them outside confinement, so code the agent wrote must never get there. A person who
    // wants a hook changed changes it themselves.
    return readGuardedFiles(this.paths, { config: p.gitPath('config'), hooks: p.gitPath('hooks') });
  }

  private async restoreFiles(before: RepoBaseline, after: RepoBaseline, notes: string[]): Promise<void> {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const all = new Set([...before.contents.keys(), ...after.contents.keys()]);
    for (const abs of [...all].sort()) {
      const shown = this.shown(abs);
      const hashIn = (snap: RepoSnapshot): string | undefined => snap.files[shown] ?? snap.gitFiles[shown];
      if (hashIn(before.snapshot) === hashIn(after.snapshot)) continue;
      const now = after.contents.get(abs);
      const name = `${shown.replace(/^[./]+/, '').replace(/[\\/]/g, '__')}.changed-${stamp}`;
      const backup = path.join(this.paths.workdir, 'backups', name);
      const done = await putBack(abs, before.contents.get(abs), now, backup);
      notes.push(`${shown} ${done}${now ? `; the changed version is in ${this.shown(backup)}` : ''}`);
    }
  }

  // ── helpers ──────────────────────────────────────────────────────────────────────────────────────────────

  /** How a file is named to the person: relative to the repo (".agent-collab/plan.md"), else absolute. */
  private shown(abs: string): string {
    const rel = path.relative(this.paths.repoRoot, abs);
    return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : abs;
  }

  private async indexFile(): Promise<string> {
    return (await this.gitPaths.get()).gitPath('index');
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

interface GitPlaces {
  head: string;
  stashLog: string;
  /** `<common dir>/worktrees`: one dir per linked worktree, its `gitdir` file naming the worktree's `.git`. */
  worktrees: string;
  main: string;
}

/**
 * `for-each-ref` output as name → id. Without `all`: not refs/stash (compared entry by entry) nor remote-tracking
 * refs — those only mirror the remote: a fetch or a push the person allowed moves them, and putting them back would
 * lose nothing of the person's but misreport the remote.
 */
function refMapOf(out: string, all: boolean): Record<string, string> {
  const refs: Record<string, string> = {};
  for (const line of out.split('\n')) {
    const [name, oid] = line.split('\0');
    if (name && oid && (all || (name !== 'refs/stash' && !name.startsWith('refs/remotes/')))) refs[name] = oid;
  }
  return refs;
}

/**
 * The linked worktrees, as `git worktree list` shows them: the dir of the `.git` each gitdir file names, and the
 * branch its HEAD file is on.
 */
async function linkedWorktrees(dir: string): Promise<WorktreeAt[]> {
  const ids = await readdir(dir).catch(() => [] as string[]);
  const found = await Promise.all(
    ids.sort().map(async (id) => {
      const [gitdir, head] = await Promise.all(
        ['gitdir', 'HEAD'].map((f) => readFile(path.join(dir, id, f), 'utf8').catch(() => '')),
      );
      const branch = /^ref: (\S+)/.exec(head ?? '')?.[1] ?? null;
      return gitdir?.trim() ? { path: path.dirname(gitdir.trim()), branch } : null;
    }),
  );
  return found.filter((w): w is WorktreeAt => w !== null);
}

async function exists(p: string): Promise<boolean> {
  return stat(p).then(
    () => true,
    () => false,
  );
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
