// A run in a worktree of its own (issue 21): `git worktree add` on a new branch `agent-collab/<slug>`, in a sibling
// dir `<repo>-agent-collab/<slug>` of the main checkout. The person's checkout (HEAD, branch, index, files) is not
// touched; the new worktree gets its own `.agent-collab/` (so its own instance lock) seeded with the person's
// project config. A sibling dir, not one inside the repo: the main checkout's tools (test runners, linters, file
// watchers) would otherwise walk into every run's copy of the sources.
import { constants } from 'node:fs';
import { access, copyFile, cp, mkdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { EXIT, UserError } from '../../core/errors.js';
import { secretEnvValues } from '../../core/redact.js';
import { slugOf } from '../../core/slug.js';
import { excludeWorkdir, firstLine, locateRepo, runGit } from './git.js';

/** Every run's branch is `agent-collab/<slug>`. */
export const RUN_BRANCH_PREFIX = 'agent-collab/';
/** What of the person's `.agent-collab/` a new worktree gets (it is kept out of git, so a checkout lacks it). */
const SEEDED = ['config.toml', 'prompts', 'context.md'];
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,59}$/;

export interface RunWorktree {
  path: string;
  branch: string;
  name: string;
}

/** `<main checkout>-agent-collab`: where the run worktrees of the repository whose main checkout is `main` live. */
export function runWorktreesDir(mainCheckout: string): string {
  return `${path.resolve(mainCheckout)}-agent-collab`;
}

/**
 * What of the refs and worktrees belongs to other agent-collab runs of this repository (issue 21): their worktrees
 * in `<main>-agent-collab/` and the branches checked out there. Those move with the other runs' own step commits
 * (and come and go with `--worktree`, `queue --parallel` and `clean`), so a run's guard leaves them out: putting them
 * back would undo another run's work. Nothing else is left out: a finished run's branch whose worktree was cleaned
 * (the one the person merges), and this run's own branch wherever HEAD points, stay guarded.
 */
export interface OtherRuns {
  refs: string[];
  worktrees: string[];
}

export interface WorktreeAt {
  path: string;
  /** "refs/heads/…", or null when detached. */
  branch: string | null;
}

/** The other runs' worktrees and branches when a turn starts. */
export function otherRunsAt(worktrees: WorktreeAt[], main: string, repoRoot: string): OtherRuns {
  const theirs = worktrees.filter((w) => isOtherRunsDir(w.path, main, repoRoot));
  return {
    worktrees: theirs.map((w) => w.path),
    refs: theirs.flatMap((w) => (w.branch?.startsWith(`refs/heads/${RUN_BRANCH_PREFIX}`) ? [w.branch] : [])),
  };
}

/**
 * The other runs' worktrees and branches when a turn is checked: those of its start, plus runs started since — a
 * new `agent-collab/*` branch (git creates it a moment before its worktree) while the runs' dir is there (made
 * before the branch), and a new worktree there on such a new branch. A worktree added there on a branch that
 * existed before the turn is no run's (a run always starts on a new branch): it and its branch stay guarded.
 */
export function otherRunsSince(
  before: OtherRuns,
  beforeRefs: string[],
  now: { refs: string[]; worktrees: WorktreeAt[]; runsDirThere: boolean },
  main: string,
  repoRoot: string,
): OtherRuns {
  const had = new Set([...beforeRefs, ...before.refs]);
  const newRunBranches = now.runsDirThere
    ? now.refs.filter((r) => r.startsWith(`refs/heads/${RUN_BRANCH_PREFIX}`) && !had.has(r))
    : [];
  const started = now.worktrees.filter(
    (w) =>
      !before.worktrees.includes(w.path) &&
      isOtherRunsDir(w.path, main, repoRoot) &&
      w.branch !== null &&
      newRunBranches.includes(w.branch),
  );
  return {
    refs: [...new Set([...before.refs, ...newRunBranches])],
    worktrees: [...new Set([...before.worktrees, ...started.map((w) => w.path)])],
  };
}

/** The snapshot without the other runs' refs and worktrees. */
export function withoutOtherRuns<S extends { refs: Record<string, string>; worktrees: string[] }>(
  snap: S,
  others: OtherRuns,
): S {
  const refs = Object.fromEntries(Object.entries(snap.refs).filter(([name]) => !others.refs.includes(name)));
  return { ...snap, refs, worktrees: snap.worktrees.filter((w) => !others.worktrees.includes(w)) };
}

function isOtherRunsDir(worktree: string, main: string, repoRoot: string): boolean {
  const own = path.resolve(repoRoot);
  return worktree.startsWith(runWorktreesDir(main) + path.sep) && path.resolve(worktree) !== own;
}

/** A name the person gave (`--worktree <name>`), or a one-line UserError saying what a name may be. */
export function checkWorktreeName(name: string): string {
  if (!NAME.test(name) || name.includes('..') || name.endsWith('.lock') || name.endsWith('.'))
    throw new UserError(
      `worktree name "${name}" is not usable: use letters, digits, ".", "_" or "-" (up to 60, starting with a letter or digit), e.g. --worktree fix-login`,
      EXIT.badInput,
    );
  return name;
}

/** The main checkout (the first of `git worktree list`) of the repository containing `dir`, real path. */
export async function mainCheckoutOf(dir: string): Promise<string> {
  const { root } = await locateRepo(dir);
  const r = await runGit(root, ['worktree', 'list', '--porcelain']);
  const first = /^worktree (.+)$/m.exec(r.stdout)?.[1];
  return realpath(first ?? root).catch(() => first ?? root);
}

/**
 * Adds the worktree on a new branch from the HEAD of `repoRoot`'s checkout. The slug comes from `name` (checked),
 * else from `goal`; `-2`, `-3`, … are appended while the branch or the dir exists — also when another run took it
 * between the check and `git worktree add` (two runs started at the same moment with the same goal).
 */
export async function createRunWorktree(opts: {
  repoRoot: string;
  name?: string;
  goal?: string;
}): Promise<RunWorktree> {
  const base =
    opts.name !== undefined ? checkWorktreeName(opts.name) : slugOf(opts.goal ?? '', secretEnvValues(process.env));
  const { root, excludeFile } = await locateRepo(opts.repoRoot);
  // Shared by every worktree: written here once, so that runs starting at the same moment find it in place.
  await excludeWorkdir(excludeFile, '.agent-collab');
  const head = await runGit(root, ['rev-parse', '-q', '--verify', 'HEAD^{commit}']);
  if (head.exitCode !== 0)
    throw new UserError(
      'this repository has no commit yet, so a worktree has nothing to start from; make a first commit, then use --worktree',
      EXIT.badInput,
    );
  const dir = runWorktreesDir(await mainCheckoutOf(root));
  await mkdir(dir, { recursive: true }).catch((err: NodeJS.ErrnoException) => {
    throw new UserError(
      `cannot create ${dir} for the run's worktree (${err.code ?? err.message}); make its parent writable or run without --worktree`,
      EXIT.badInput,
    );
  });
  for (let n = 1; n <= 100; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    const branch = `${RUN_BRANCH_PREFIX}${name}`;
    const at = path.join(dir, name);
    if ((await taken(root, branch, at)) && n < 100) continue;
    // --no-track: the new branch gets no upstream, so the shared git config is not written.
    const r = await runGit(root, ['worktree', 'add', '--quiet', '--no-track', '-b', branch, at, head.stdout.trim()]);
    if (r.exitCode === 0) {
      await seedWorkdir(root, at);
      return { path: at, branch, name };
    }
    if (await taken(root, branch, at)) continue; // another run took it first
    throw new UserError(`git worktree add failed: ${firstLine(r.stderr)}`, EXIT.badInput);
  }
  throw new UserError(
    `no free worktree name for "${base}" in ${dir}; remove finished ones with \`agent-collab clean\``,
  );
}

async function taken(root: string, branch: string, at: string): Promise<boolean> {
  const ref = await runGit(root, ['rev-parse', '-q', '--verify', `refs/heads/${branch}`]);
  return ref.exitCode === 0 || (await exists(at));
}

/** The person's project config (and prompt overrides, project context) into the new worktree's `.agent-collab/`. */
async function seedWorkdir(from: string, worktree: string): Promise<void> {
  const src = path.join(from, '.agent-collab');
  const dst = path.join(worktree, '.agent-collab');
  await mkdir(dst, { recursive: true });
  for (const entry of SEEDED) {
    const s = path.join(src, entry);
    const d = path.join(dst, entry);
    if (!(await exists(s)) || (await exists(d))) continue; // a tracked version in the checkout wins
    if (entry === 'prompts') await cp(s, d, { recursive: true, dereference: false });
    else await copyFile(s, d);
  }
}

async function exists(p: string): Promise<boolean> {
  return access(p, constants.F_OK).then(
    () => true,
    () => false,
  );
}
