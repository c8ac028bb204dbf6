// The executor's git work: snapshot the working tree before a step, commit only the step's own hunks (HEAD plus the
// diff base → now, after the repo-state, overlap, size and secret checks), and roll a step back. The person's files
// are never touched by a commit; their index only gets the step's hunks.
import { copyFile, mkdtemp, rm, rmdir, stat, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  commitFailureMessage,
  findStepCommit,
  stepCommitAndHeadTree,
  firstLine,
  runGit,
  stepCommitMessageArgs,
  type GitCallOptions,
  type StepCommitKey,
} from './git.js';
import type {
  ReviewChanges,
  ReviewRange,
  StepChanges,
  StepCommitOptions,
  StepCommitResult,
  StepWorkspace,
} from '../../core/ports.js';
import { diffPairs, runCommitsDiff } from './review-diff.js';
import type { LargeChange } from '../../core/types.js';
import { AgentHunks, indexInfo, parseRawEntries, type EntryChange } from './agent-hunks.js';
import { catchUpIndex } from './index-catch-up.js';
import { checkRepoSafety } from './repo-safety.js';
import { GitPathsOnce } from './git-paths.js';
import { redactText, type KnownSecret } from '../../core/redact.js';
import { findSecrets } from './secret-check.js';
import { plainCommit, type CommitRunner } from './boxed-commit.js';

/** Pathspecs passed through --pathspec-from-file are taken literally (no globbing of `[`, `*`, `?` in file names). */
const LITERAL = { GIT_LITERAL_PATHSPECS: '1' };
const PATHSPEC_STDIN = ['--pathspec-from-file=-', '--pathspec-file-nul'];
/** Fixed diff shape whatever the person's config says (prefixes, external diff drivers, colors, relative paths). */
const DIFF_FLAGS = ['--no-ext-diff', '--no-textconv', '--no-color', '--src-prefix=a/', '--dst-prefix=b/'];
const GITLINK_MODE = '160000';

export interface RawChange {
  path: string;
  status: string;
  newMode: string;
}

function nulList(stdout: string): string[] {
  return stdout.split('\0').filter((s) => s.length > 0);
}

function nulInput(files: string[]): string {
  return files.map((f) => `${f}\0`).join('');
}

/** `git diff --raw -z` output: path, status and new mode per entry ('000000' when deleted). */
export function parseRaw(out: string): RawChange[] {
  return parseRawEntries(out).map((c) => ({ path: c.path, status: c.status, newMode: c.to?.mode ?? '000000' }));
}

/** What a step commit is checked against before it is made. */
export interface WorkspaceLimits {
  /** `--allow-detached`: steps may be committed onto a detached HEAD. */
  allowDetached: boolean;
  /** `[safety] max_file_size`: a bigger file in a step holds it for the person. */
  maxFileBytes: number;
  /** `[safety] max_files_per_step`: more files in a step hold it for the person. */
  maxFiles: number;
}

export const DEFAULT_LIMITS: WorkspaceLimits = { allowDetached: false, maxFileBytes: 5 * 1024 * 1024, maxFiles: 200 };

export class GitStepWorkspace implements StepWorkspace {
  /** The person's index file (`git rev-parse --git-path index`: a linked worktree has its own), found once. */
  /** agent-collab's work dir relative to the repo root, or null when it lies outside the repo. */
  private readonly workdir: string | null;

  private readonly limits: WorkspaceLimits;

  constructor(
    private readonly repoRoot: string,
    workdirRel: string,
    limits: Partial<WorkspaceLimits> = {},
    /** Values of agent-collab's secret environment variables: flagged by the scan, never put in a commit message. */
    private readonly knownSecrets: readonly KnownSecret[] = [],
    /** How the step commit is spawned: boxed and checked afterwards when confinement is on (boxed-commit.ts). */
    private readonly runCommit: CommitRunner = plainCommit,
    /** Where git keeps the index and the rest: read once per session (git-paths.ts). */
    private readonly gitPaths: GitPathsOnce = new GitPathsOnce(repoRoot),
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
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

  async reviewDiff(range: ReviewRange, opts: { signal: AbortSignal; maxBytes: number }): Promise<ReviewChanges> {
    const call = { repoRoot: this.repoRoot, pathspec: this.everythingButWorkdir(), ...opts };
    if (range.kind === 'run') {
      // After the person edited the code by hand for the review, their uncommitted changes are read too.
      const worktree = range.withWorkingTree
        ? { from: await this.headTreeOrEmpty(), to: await this.snapshot(opts.signal) }
        : null;
      return runCommitsDiff(call, range.runId, await this.emptyTree(), worktree);
    }
    const now = await this.snapshot(opts.signal);
    return diffPairs(call, [{ from: range.baseTree, to: now }]);
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
    // The log that holds a step commit names HEAD's tree too: one git process less per commit. The repository's
    // safety is read alongside (it reads only HEAD and git's operation files); it is judged below, before any commit.
    const [logged, now, unsafe] = await Promise.all([
      opts.baseTree ? stepCommitAndHeadTree(this.repoRoot, keyFrom(opts.baseTree), signal) : null,
      this.snapshot(signal),
      checkRepoSafety(
        this.repoRoot,
        { allowDetached: this.limits.allowDetached, atStart: false },
        signal,
        this.gitPaths,
      ),
    ]);
    const found = logged?.found ?? null;
    const head = logged?.headTree !== undefined ? logged.headTree : await this.headTree(signal);
    const headOrEmpty = head ?? (await this.emptyTree());
    const key = keyFrom(opts.baseTree ?? headOrEmpty);
    const existing = opts.baseTree ? found : await findStepCommit(this.repoRoot, key, signal);
    if (existing) {
      // agent-collab may have died between the commit and giving the person's index the agent's hunks.
      await catchUpIndex(this.repoRoot, ['--root', existing]);
      return { kind: 'committed', hash: existing };
    }

    // Never into a rebase, a merge, … that began during the run (nor onto a HEAD that became detached).
    if (unsafe) return { kind: 'failed', message: `step ${opts.step} was not committed: ${unsafe.message}` };

    return this.withTempIndex(async (env) => {
      // The commit is HEAD plus the agent's hunks, built in an index of its own: the person's index is not staged
      // from, and git commit (hooks included) sees only this index. HEAD is read into it while the hunks are sorted.
      const [plan] = await Promise.all([
        new AgentHunks(this.repoRoot, this.everythingButWorkdir()).plan(key.baseTree, now, headOrEmpty, {
          personsIndex: opts.baseTree !== null,
          commitBoth: opts.commitBoth === true,
        }),
        head !== null ? this.must(['read-tree', 'HEAD'], { env }, 'read HEAD') : null,
      ]);
      if (plan.overlaps.length > 0) return { kind: 'overlap', files: plan.overlaps } as const;
      if (plan.commit.length === 0) return { kind: 'nothing' } as const;
      const files = plan.commit.map((c) => c.path);
      if (!opts.allowLarge) {
        const large = await this.largeChange(plan.commit);
        if (large) return { kind: 'large', large } as const;
      }
      await this.updateIndex(plan.commit, env);
      const tree = (await this.must(['write-tree'], { env }, 'stage the step')).trim();
      const patch = await this.must(['diff', '--binary', ...DIFF_FLAGS, headOrEmpty, tree], {}, 'diff the step');
      const findings = await findSecrets(this.repoRoot, patch, opts.summary, this.knownSecrets, signal);
      if (findings.length > 0 && !opts.allowSecrets) return { kind: 'secrets', findings };
      // Without git's auto-maintenance after the commit (`git maintenance run --auto`, possibly a gc): the person's
      // next commit, merge or fetch runs it, rather than a step of an unattended run. A stop kills hooks and gpg with it.
      const { result: commit, overreach } = await this.runCommit(
        this.repoRoot,
        // Committed anyway after a finding: the subject never carries the secret itself.
        [
          '-c',
          'maintenance.auto=false',
          'commit',
          '-q',
          ...stepCommitMessageArgs(key, redactText(opts.summary, this.knownSecrets)),
        ],
        { env, signal },
      );
      // The commit (if made) is undone already: HEAD and the person's index are as before it.
      if (overreach) return { kind: 'forbidden', ...overreach } as const;
      if (commit.exitCode !== 0) {
        return {
          kind: 'failed',
          message: commitFailureMessage(opts.step, commit.stderr.trim() ? commit.stderr : commit.stdout),
        };
      }
      // A pre-commit hook may have changed what is committed (a formatter that stages its work): scanned too.
      const [hash = '', committed = ''] = (
        await this.must(['rev-parse', 'HEAD', 'HEAD^{tree}'], {}, 'read the new commit')
      ).split('\n');
      if (committed !== tree && !opts.allowSecrets) {
        const byHooks = await this.must(['diff', '--binary', ...DIFF_FLAGS, tree, committed], {}, 'diff the hooks');
        const hookFindings = await findSecrets(this.repoRoot, byHooks, '', this.knownSecrets, signal);
        if (hookFindings.length > 0) {
          await this.undoCommit(head === null ? null : await this.commitOf('HEAD^'));
          return {
            kind: 'secrets',
            findings: hookFindings.map((f) => ({ ...f, file: `${f.file} (changed by a commit hook)` })),
          } as const;
        }
      }
      // The person's index gets the agent's hunks as well: what they had staged stays staged against the new HEAD,
      // and the agent's change, now committed, is not shown as staged (nor as undone). What a hook changed in the
      // commit is taken into the index too, where the index had the version built for the commit.
      await this.updateIndex(plan.index, {});
      if (committed !== tree) await catchUpIndex(this.repoRoot, [tree, committed]);
      return { kind: 'committed', hash, files, patch } as const;
    });
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

  /** Entries into an index (the person's without `env`) through `update-index --index-info`. */
  /** The commit just made is taken back: HEAD (its branch) to `parent`, or back to no commit at all. */
  private async undoCommit(parent: string | null): Promise<void> {
    const made = await this.commitOf('HEAD');
    const args = parent === null ? ['update-ref', '-d', 'HEAD', made] : ['update-ref', 'HEAD', parent, made];
    await this.must(args, {}, 'take the commit back');
  }

  private async commitOf(rev: string): Promise<string> {
    return (await this.must(['rev-parse', '--verify', '-q', `${rev}^{commit}`], {}, 'read a commit')).trim();
  }

  private async updateIndex(changes: readonly EntryChange[], env: Record<string, string>): Promise<void> {
    if (changes.length === 0) return;
    await this.must(['update-index', '-z', '--index-info'], { env, input: indexInfo(changes) }, 'update the index');
  }

  /** The commit's files over the size limit, and its file count over the count limit; null when within both. */
  private async largeChange(changes: readonly EntryChange[]): Promise<LargeChange | null> {
    const { maxFileBytes, maxFiles } = this.limits;
    const oids = changes.flatMap((c) => (c.entry && c.entry.mode !== GITLINK_MODE ? [c.entry.oid] : []));
    const sizes = new Map<string, number>();
    if (oids.length > 0) {
      const out = await this.must(
        ['cat-file', '--batch-check=%(objectname) %(objectsize)'],
        { input: oids.map((o) => `${o}\n`).join('') },
        'read file sizes',
      );
      for (const line of out.split('\n')) {
        const [oid, size] = line.split(' ');
        if (oid && size) sizes.set(oid, Number(size));
      }
    }
    const files = changes.flatMap((c) => {
      const bytes = c.entry ? (sizes.get(c.entry.oid) ?? 0) : 0;
      return bytes > maxFileBytes ? [{ path: c.path, bytes }] : [];
    });
    if (files.length === 0 && changes.length <= maxFiles) return null;
    return { files, count: changes.length, maxFileBytes, maxFiles };
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
    const index = (await this.gitPaths.get()).gitPath('index');
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

  private async headTreeOrEmpty(): Promise<string> {
    return (await this.headTree()) ?? (await this.emptyTree());
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
