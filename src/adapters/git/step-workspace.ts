// The executor's git work: snapshot the working tree before a step, commit only what the step changed (after a
// secret scan), and roll a step back. The person's index and files are only touched where the step's files are.
import { copyFile, mkdtemp, rm, rmdir, stat, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  commitFailureMessage,
  findStepCommit,
  firstLine,
  runGit,
  stepCommitMessageArgs,
  type GitCallOptions,
  type StepCommitKey,
} from './git.js';
import type { StepChanges, StepCommitOptions, StepCommitResult, StepWorkspace } from '../../core/ports.js';
import { scanDiff } from '../../core/secret-scan.js';
import { plainCommit, type CommitRunner } from './boxed-commit.js';

/** Pathspecs passed through --pathspec-from-file are taken literally (no globbing of `[`, `*`, `?` in file names). */
const LITERAL = { GIT_LITERAL_PATHSPECS: '1' };
const PATHSPEC_STDIN = ['--pathspec-from-file=-', '--pathspec-file-nul'];
/** Fixed diff shape whatever the person's config says (prefixes, external diff drivers, colors, relative paths). */
const DIFF_FLAGS = ['--no-ext-diff', '--no-textconv', '--no-color', '--src-prefix=a/', '--dst-prefix=b/'];
const GITLINK_MODE = '160000';
/** Up to this many bytes of file names go on a git command line (Linux allows 2 MB of argv in all; macOS 1 MB). */
const MAX_PATHSPEC_ARGV_BYTES = 128 * 1024;

export interface RawChange {
  path: string;
  status: string;
  newMode: string;
}

function nulList(stdout: string): string[] {
  return stdout.split('\0').filter((s) => s.length > 0);
}

function fitsOnCommandLine(files: string[]): boolean {
  return files.reduce((n, f) => n + Buffer.byteLength(f) + 1, 0) <= MAX_PATHSPEC_ARGV_BYTES;
}

function nulInput(files: string[]): string {
  return files.map((f) => `${f}\0`).join('');
}

/** `git diff --raw -z` output: `:<modes> <hashes> <status>\0<path>\0` per entry. */
export function parseRaw(out: string): RawChange[] {
  const changes: RawChange[] = [];
  let pos = 0;
  while (out.startsWith(':', pos)) {
    const metaEnd = out.indexOf('\0', pos);
    const pathEnd = metaEnd < 0 ? -1 : out.indexOf('\0', metaEnd + 1);
    if (pathEnd < 0)
      throw new Error(`could not read git's list of changed files (cut short after ${changes.length} entries)`);
    const [, newMode = '', , , status = ''] = out.slice(pos + 1, metaEnd).split(' ');
    changes.push({ path: out.slice(metaEnd + 1, pathEnd), status: status.charAt(0), newMode });
    pos = pathEnd + 1;
  }
  return changes;
}

export class GitStepWorkspace implements StepWorkspace {
  /** The person's index file (`git rev-parse --git-path index`: a linked worktree has its own), found once. */
  private indexPath: Promise<string> | null = null;
  /** agent-collab's work dir relative to the repo root, or null when it lies outside the repo. */
  private readonly workdir: string | null;

  constructor(
    private readonly repoRoot: string,
    workdirRel: string,
    /** How the step commit is spawned: boxed and checked afterwards when confinement is on (boxed-commit.ts). */
    private readonly runCommit: CommitRunner = plainCommit,
  ) {
    const rel = path.relative(repoRoot, path.resolve(repoRoot, workdirRel)).split(path.sep).join('/');
    this.workdir = rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : null;
  }

  async snapshot(signal?: AbortSignal): Promise<string> {
    return this.withTempIndex(async (env) => {
      await this.seedFromPersonsIndex(env.GIT_INDEX_FILE);
      // agent-collab's work dir is not removed from the snapshot: it is git-ignored (info/exclude), so `git add -A`
      // leaves it out unless the person tracks it, and every diff of snapshots excludes it by pathspec anyway.
      // Stopping it is harmless (a temporary index); clean filters (e.g. LFS) may take long on a big tree.
      await this.must(['add', '-A'], { env, signal }, 'snapshot the working tree');
      return (await this.must(['write-tree'], { env, signal }, 'snapshot the working tree')).trim();
    });
  }

  async changedSince(baseTree: string): Promise<StepChanges> {
    const now = await this.snapshot();
    const files = await this.changedFiles(baseTree, now);
    const patch =
      files.length === 0
        ? ''
        : await this.must(
            ['diff', '--binary', ...DIFF_FLAGS, baseTree, now, '--', ...this.everythingButWorkdir()],
            {},
            'diff the step',
          );
    return { files, patch };
  }

  async commitStep(opts: StepCommitOptions): Promise<StepCommitResult> {
    const { signal } = opts;
    // A crash may have come between `git commit` and saving the state that records it: no second commit then.
    // (Independent reads, so at once; without a saved base the step is measured from HEAD, known only after.)
    const keyFrom = (baseTree: string): StepCommitKey => ({
      runId: opts.runId,
      step: opts.step,
      baseTree,
      startedAt: opts.startedAt,
    });
    const [found, now, head] = await Promise.all([
      opts.baseTree ? findStepCommit(this.repoRoot, keyFrom(opts.baseTree), signal) : null,
      this.snapshot(signal),
      this.headTree(signal),
    ]);
    const headOrEmpty = head ?? (await this.emptyTree());
    const key = keyFrom(opts.baseTree ?? headOrEmpty);
    const existing = opts.baseTree ? found : await findStepCommit(this.repoRoot, key, signal);
    if (existing) return { kind: 'committed', hash: existing };

    const changes = await this.stepChanges(key.baseTree, headOrEmpty, now);
    if (changes.length === 0) return { kind: 'nothing' };
    const files = changes.map((c) => c.path);
    const patch = await this.commitPatch(head, headOrEmpty, now, files);
    const findings = scanDiff(patch);
    if (findings.length > 0 && !opts.allowSecrets) return { kind: 'secrets', findings };

    // `git commit --only <files>` commits those paths' working-tree content and nothing else that is staged; git
    // updates the real index for exactly those paths. New files must be known to the index first: intent-to-add
    // records the path without staging its content (a path the index has already, e.g. a file the person staged,
    // stays as it is), and is undone if the commit fails.
    const created = changes.filter((c) => c.status === 'A').map((c) => c.path);
    if (created.length > 0)
      await this.must(
        ['add', '-N', ...PATHSPEC_STDIN],
        { env: LITERAL, input: nulInput(created) },
        'stage the new files',
      );
    // Without git's auto-maintenance after the commit (`git maintenance run --auto`, possibly a gc): the person's
    // next commit, merge or fetch runs it, rather than a step of an unattended run. A stop kills hooks and gpg with it.
    const { result: commit, overreach } = await this.runCommit(
      this.repoRoot,
      [
        '-c',
        'maintenance.auto=false',
        'commit',
        '-q',
        '--only',
        ...PATHSPEC_STDIN,
        ...stepCommitMessageArgs(key, opts.summary),
      ],
      {
        env: LITERAL,
        input: nulInput(files),
        signal,
      },
    );
    if (overreach) {
      // The commit (if made) is undone already: HEAD and the index are as before it.
      await this.undoIntentToAdd(created, headOrEmpty);
      return { kind: 'forbidden', ...overreach };
    }
    if (commit.exitCode !== 0) {
      await this.undoIntentToAdd(created, headOrEmpty);
      return {
        kind: 'failed',
        message: commitFailureMessage(opts.step, commit.stderr.trim() ? commit.stderr : commit.stdout),
      };
    }
    const hash = (await this.must(['rev-parse', 'HEAD'], {}, 'read the new commit')).trim();
    return { kind: 'committed', hash, files, patch };
  }

  async rollback(baseTree: string): Promise<string[]> {
    const now = await this.snapshot();
    const changes = await this.rawChanges(baseTree, now);
    const restore = changes.filter((c) => c.status !== 'A').map((c) => c.path);
    if (restore.length > 0) {
      await this.must(
        ['restore', `--source=${baseTree}`, '--worktree', ...PATHSPEC_STDIN],
        { env: LITERAL, input: nulInput(restore) },
        'restore the files',
      );
    }
    const removed: string[] = [];
    for (const c of changes.filter((ch) => ch.status === 'A')) {
      if (c.newMode === GITLINK_MODE) continue; // a nested repository the step created: never delete a whole repo
      await rm(path.join(this.repoRoot, c.path), { force: true });
      removed.push(c.path);
    }
    await this.removeEmptyParents(removed);
    return [...restore, ...removed].sort();
  }

  // ── helpers ──────────────────────────────────────────────────────────────────────────────────────────────

  private everythingButWorkdir(): string[] {
    return this.workdir ? ['.', `:(top,exclude,literal)${this.workdir}`] : ['.'];
  }

  private async changedFiles(from: string, to: string): Promise<string[]> {
    if (from === to) return [];
    const out = await this.must(
      ['diff', '--name-only', '-z', '--no-renames', ...DIFF_FLAGS, from, to, '--', ...this.everythingButWorkdir()],
      {},
      'list changed files',
    );
    return nulList(out);
  }

  /** `git diff --raw -z` between two trees: status and new mode per path (renames as delete + add). */
  private async rawChanges(from: string, to: string): Promise<RawChange[]> {
    if (from === to) return [];
    const out = await this.must(
      ['diff', '--raw', '-z', '--no-renames', ...DIFF_FLAGS, from, to, '--', ...this.everythingButWorkdir()],
      {},
      'list changed files',
    );
    return parseRaw(out);
  }

  /**
   * The step's files (changed since `base`) that differ from HEAD, with their status against HEAD: a file the step
   * changed back to HEAD's content is no change.
   */
  private async stepChanges(base: string, headOrEmpty: string, now: string): Promise<RawChange[]> {
    const [sinceBase, sinceHead] = await Promise.all([this.changedFiles(base, now), this.rawChanges(headOrEmpty, now)]);
    const stepFiles = new Set(sinceBase);
    return sinceHead.filter((c) => stepFiles.has(c.path));
  }

  /**
   * The diff HEAD → (HEAD + `files` as in the snapshot `now`): exactly what the commit will hold. The files go on the
   * command line as literal pathspecs; a list too long for one command line is staged in a temporary index instead.
   */
  private async commitPatch(head: string | null, headOrEmpty: string, now: string, files: string[]): Promise<string> {
    if (fitsOnCommandLine(files)) {
      return this.must(
        ['diff', '--binary', ...DIFF_FLAGS, headOrEmpty, now, '--', ...files],
        { env: LITERAL },
        'diff the step',
      );
    }
    return this.withTempIndex(async (env) => {
      if (head !== null) await this.must(['read-tree', 'HEAD'], { env }, 'read HEAD');
      await this.must(
        ['add', '-A', ...PATHSPEC_STDIN],
        { env: { ...env, ...LITERAL }, input: nulInput(files) },
        'stage the step',
      );
      const tree = (await this.must(['write-tree'], { env }, 'stage the step')).trim();
      return this.must(['diff', '--binary', ...DIFF_FLAGS, headOrEmpty, tree], {}, 'diff the step');
    });
  }

  /**
   * After a failed commit: the intent-to-add entries made for it go again. `git diff --cached` does not show
   * intent-to-add entries, so a new file it lists as added was staged by the person and keeps its staged content.
   */
  private async undoIntentToAdd(created: string[], headOrEmpty: string): Promise<void> {
    if (created.length === 0) return;
    const staged = new Set(
      nulList(
        await this.must(
          [
            'diff',
            '--cached',
            '--name-only',
            '-z',
            '--no-renames',
            '--diff-filter=A',
            ...DIFF_FLAGS,
            headOrEmpty,
            '--',
          ],
          {},
          'read the index',
        ),
      ),
    );
    const added = created.filter((f) => !staged.has(f));
    if (added.length > 0)
      await runGit(this.repoRoot, ['reset', '-q', ...PATHSPEC_STDIN], { env: LITERAL, input: nulInput(added) });
  }

  /** Removes directories left empty by deleting `files` (up to the repo root; non-empty ones stay). */
  private async removeEmptyParents(files: string[]): Promise<void> {
    const dirs = new Set<string>();
    for (const f of files) {
      for (let d = path.posix.dirname(f); d !== '.' && d !== '/'; d = path.posix.dirname(d)) dirs.add(d);
    }
    const deepestFirst = [...dirs].sort((a, b) => b.split('/').length - a.split('/').length);
    for (const d of deepestFirst) await rmdir(path.join(this.repoRoot, d)).catch(() => undefined);
  }

  /**
   * Starts a temporary index as a copy of the person's index (read only): its skip-worktree bits keep a sparse
   * checkout's absent files from looking deleted. Without an index yet, the temporary one starts empty.
   */
  private async seedFromPersonsIndex(tempIndex: string): Promise<void> {
    this.indexPath ??= this.must(['rev-parse', '--git-path', 'index'], {}, 'find the index').then(
      (out) => path.resolve(this.repoRoot, out.trim()),
      (err: unknown) => {
        this.indexPath = null; // asked again next time
        throw err;
      },
    );
    const index = await this.indexPath;
    let mtimeMs: number;
    try {
      ({ mtimeMs } = await stat(index));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    await copyFile(index, tempIndex);
    // The copy keeps the original's mtime (never a later one): git's racy-clean check then treats entries alike, and
    // a file changed in the same second as the person's index is not taken for unchanged.
    const mtime = new Date(Math.floor(mtimeMs));
    await utimes(tempIndex, mtime, mtime);
  }

  private async headTree(signal?: AbortSignal): Promise<string | null> {
    const r = await runGit(this.repoRoot, ['rev-parse', '-q', '--verify', 'HEAD^{tree}'], { signal });
    return r.exitCode === 0 ? r.stdout.trim() : null;
  }

  private async emptyTree(): Promise<string> {
    return (await this.must(['hash-object', '-t', 'tree', '--stdin'], { input: '' }, 'make an empty tree')).trim();
  }

  /** A temporary index in a directory of its own. */
  private async withTempIndex<T>(fn: (env: { GIT_INDEX_FILE: string }) => Promise<T>): Promise<T> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'agent-collab-index-'));
    try {
      return await fn({ GIT_INDEX_FILE: path.join(dir, 'index') });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Runs git and returns stdout; a failure becomes an Error saying what could not be done and why. */
  private async must(args: string[], opts: GitCallOptions, what: string): Promise<string> {
    const r = await runGit(this.repoRoot, args, opts);
    if (r.exitCode !== 0) throw new Error(`could not ${what} (git ${args[0]}): ${firstLine(r.stderr || r.stdout)}`);
    return r.stdout;
  }
}
