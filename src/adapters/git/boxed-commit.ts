// agent-collab's own step commit, run in the same bubblewrap box as the agent: the repo's hooks (and whatever
// tracked script they call — package.json scripts, lint-staged, lefthook, the pre-commit framework) run code the
// agent may have written. In the box they can write the working tree and the git dirs (a commit must write objects,
// the index, refs and logs), nothing else of the machine: $HOME, `.agent-collab/`, git's config and hooks stay
// read-only. Afterwards the git dirs and refs are checked: the only change allowed is the new commit on the current
// branch; anything else is undone (the commit too) and handed to the person as a forbidden change.
import { readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { describeRepoChanges, type RepoSnapshot } from '../../core/repo-invariants.js';
import { BWRAP, bwrapArgs, gitDirsOf, type AgentConfinement, type ConfinementSpec } from '../confinement/index.js';
import { runGit, type GitCallOptions, type GitResult } from './git.js';
import { putBackGitDirFiles, readGitDirFiles } from './git-dir-files.js';
import { GitPathsOnce } from './git-paths.js';
import type { GitRepoState, RepoBaseline } from './repo-state.js';

/** What a hook did beyond the commit: one line per change, and what agent-collab undid. */
export interface CommitOverreach {
  changes: string[];
  undone: string[];
}

export interface CommitOutcome {
  result: GitResult;
  /** Null when the commit changed nothing but the new commit on the current branch. */
  overreach: CommitOverreach | null;
}

/** How agent-collab's step commit is spawned: plain git (sandbox off), or boxed and checked. */
export type CommitRunner = (repoRoot: string, args: string[], opts: GitCallOptions) => Promise<CommitOutcome>;

export const plainCommit: CommitRunner = async (repoRoot, args, opts) => ({
  result: await runGit(repoRoot, args, opts),
  overreach: null,
});

/**
 * Hook tools keep caches under $HOME (pre-commit: ~/.cache/pre-commit, npm: ~/.npm), which the box keeps
 * read-only. They get a private one in the box's own /tmp instead: a hook tool still works, and nothing it writes
 * outlives the commit (a pre-commit framework hook from a remote repo is fetched again at every step commit).
 */
const HOOK_CACHE = '/tmp/agent-collab-hook-cache';
const HOOK_TOOL_ENV = {
  XDG_CACHE_HOME: HOOK_CACHE,
  PRE_COMMIT_HOME: `${HOOK_CACHE}/pre-commit`,
  npm_config_cache: `${HOOK_CACHE}/npm`,
};

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

interface GitPlaces {
  /** The worktree's git dir and the common dir (real paths). */
  gitDirs: string[];
  /** git's config files and hooks dir (wherever core.hooksPath puts them): read-only even in the box. */
  readOnly: string[];
}

async function gitPlaces(repoRoot: string, gitPaths: GitPathsOnce): Promise<GitPlaces> {
  const p = await gitPaths.get();
  const own = real(p.gitDir);
  const common = real(p.commonDir);
  return {
    gitDirs: [...new Set([own, common, ...gitDirsOf(repoRoot).map(real)])],
    readOnly: [
      ...(['config', 'config.worktree', 'hooks', 'index'] as const).map((n) => real(p.gitPath(n))),
      ...notForTheCommit(own, common),
    ],
  };
}

/**
 * What a commit never writes, yet names code or a repo git would use later: the person's index (the commit is made
 * from a temporary one), the submodules' git dirs (their config), `info/` (attributes pick filters), and the other
 * worktrees' git dirs and this one's links (commondir, gitdir: they say where a worktree's repo is).
 */
function notForTheCommit(own: string, common: string): string[] {
  const worktrees = path.join(common, 'worktrees');
  let linked: string[] = [];
  try {
    linked = readdirSync(worktrees).map((name) => path.join(worktrees, name));
  } catch {
    // no linked worktrees
  }
  return [
    path.join(common, 'modules'),
    path.join(common, 'info'),
    ...linked.flatMap((dir) => (dir === own ? [path.join(dir, 'commondir'), path.join(dir, 'gitdir')] : [dir])),
  ];
}

/** How a file is named to the person: relative to the repo (".git/config"), else absolute. */
function shownPath(repoRoot: string, abs: string): string {
  const rel = path.relative(repoRoot, abs);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : abs;
}

/** The comparison without agent-collab's own backups of what the hooks changed (written after the commit). */
function withoutFiles<T extends { after: RepoBaseline }>(compared: T, abs: string[], shown: (a: string) => string): T {
  const files = { ...compared.after.snapshot.files };
  for (const a of abs) delete files[shown(a)];
  const contents = new Map([...compared.after.contents].filter(([a]) => !abs.includes(a)));
  return { ...compared, after: { ...compared.after, snapshot: { ...compared.after.snapshot, files }, contents } };
}

/** The snapshot the commit may leave: `before` plus the new commit on HEAD's branch (or detached HEAD). */
function expectedAfterCommit(before: RepoSnapshot, newHead: string): RepoSnapshot {
  return {
    ...before,
    head: newHead,
    refs: before.branch ? { ...before.refs, [before.branch]: newHead } : before.refs,
  };
}

export class BoxedCommit {
  /** Where the git dirs are: found once (they do not move while agent-collab runs). */
  private places: Promise<GitPlaces> | null = null;

  constructor(
    private readonly confinement: AgentConfinement,
    private readonly repoState: GitRepoState,
    /** Where changed git files are kept for the person (agent-collab's backups dir). */
    private readonly backupDir: string,
    /** Where git keeps its files: read once per session (git-paths.ts). */
    private readonly gitPaths?: GitPathsOnce,
  ) {}

  readonly run: CommitRunner = async (repoRoot, args, opts) => {
    const problem = await this.confinement.check();
    if (problem !== null) return { result: { stdout: '', stderr: problem, exitCode: 1 }, overreach: null };
    this.places ??= gitPlaces(repoRoot, this.gitPaths ?? new GitPathsOnce(repoRoot)).catch((err: unknown) => {
      this.places = null; // asked again next time
      throw err;
    });
    const places = await this.places;
    const [before, filesBefore] = await Promise.all([this.repoState.take(), readGitDirFiles(places.gitDirs)]);
    const spec: ConfinementSpec = {
      repo: repoRoot,
      workdir: this.confinement.workdir,
      ...(process.env.HOME ? { home: process.env.HOME } : {}),
      gitWritable: true,
      readOnly: places.readOnly,
      // runGit starts it in a session of its own without a terminal; a stop's SIGTERM then reaches git and its hooks
      sameSession: true,
      // a temporary index (GIT_INDEX_FILE) outside the repo must be writable too
      ...(opts.env?.GIT_INDEX_FILE
        ? { stateDirs: [path.dirname(path.resolve(repoRoot, opts.env.GIT_INDEX_FILE))] }
        : {}),
    };
    const result = await runGit(repoRoot, args, {
      ...opts,
      env: { ...opts.env, ...HOOK_TOOL_ENV },
      wrap: (gitArgs) => ({ command: BWRAP, args: bwrapArgs(spec, 'git', gitArgs) }),
    });
    // Files first, before any other git command: a planted config or commondir would steer that one.
    const shown = (abs: string): string => shownPath(repoRoot, abs);
    const files = await putBackGitDirFiles(filesBefore, await readGitDirFiles(places.gitDirs), this.backupDir, shown);
    const { after } = withoutFiles(await this.repoState.compare(before), files.backups, shown);
    // A stop may kill git after the commit was made: that commit is the step's (found again by its trailers on resume).
    const finished = result.exitCode === 0 || opts.signal?.aborted === true;
    const moved = finished && after.snapshot.head !== null && after.snapshot.head !== before.snapshot.head;
    const isOneCommitOnTop = moved && (await this.parentsOf(repoRoot, after.snapshot.head!)) === before.snapshot.head;
    const expected = isOneCommitOnTop ? expectedAfterCommit(before.snapshot, after.snapshot.head!) : before.snapshot;
    const changes = [...files.changes, ...describeRepoChanges(expected, after.snapshot)];
    if (changes.length === 0) return { result, overreach: null };
    // Everything goes back to before the commit, the commit included: the step's files stay in the working tree.
    const undone = [...files.undone, ...(await this.repoState.restore(before, after))];
    if (isOneCommitOnTop)
      undone.push(`the step's commit ${after.snapshot.head!.slice(0, 7)} undone; its files stay in the working tree`);
    return { result, overreach: { changes, undone } };
  };

  /** The commit's one parent, null for a root commit (HEAD had none before), undefined for anything else. */
  private async parentsOf(repoRoot: string, commit: string): Promise<string | null | undefined> {
    const r = await runGit(repoRoot, ['rev-list', '--parents', '-n', '1', commit]);
    if (r.exitCode !== 0) return undefined;
    const parents = r.stdout.trim().split(' ').slice(1);
    return parents.length === 0 ? null : parents.length === 1 ? parents[0] : undefined;
  }
}
