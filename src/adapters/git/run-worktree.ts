// A run in a worktree of its own (issue 21): `git worktree add` on a new branch `agent-collab/<slug>`, in a sibling
// dir `<repo>-agent-collab/<slug>` of the main checkout. The person's checkout (HEAD, branch, index, files) is not
// touched; the new worktree gets its own `.agent-collab/` (so its own instance lock) seeded with the person's
// project config. A sibling dir, not one inside the repo: the main checkout's tools (test runners, linters, file
// watchers) would otherwise walk into every run's copy of the sources.
import { constants } from 'node:fs';
import { access, copyFile, cp, mkdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { EXIT, UserError } from '../../core/errors.js';
import { firstLine, locateRepo, runGit } from './git.js';

/** Every run's branch is `agent-collab/<slug>`. */
export const RUN_BRANCH_PREFIX = 'agent-collab/';
/** What of the person's `.agent-collab/` a new worktree gets (it is kept out of git, so a checkout lacks it). */
const SEEDED = ['config.toml', 'prompts', 'context.md'];
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,59}$/;
const MAX_SLUG = 40;

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
 * The snapshot without what other agent-collab runs of this repository change while this one runs (issue 21):
 * their `agent-collab/<slug>` branches (each moves with its run's step commits) and their worktrees in
 * `<main>-agent-collab/` (created and removed by `--worktree`, `queue --parallel` and `clean`). Putting those back
 * would undo another run's commits. This run's own branch and worktree stay guarded. What an agent could do there
 * is bounded by the box: the git dirs are read-only to it (docs/user-guide.md, "Runs in worktrees").
 */
export function withoutOtherRuns<
  S extends { branch: string | null; refs: Record<string, string>; worktrees: string[] },
>(snap: S, main: string, repoRoot: string): S {
  const runsDir = runWorktreesDir(main) + path.sep;
  const own = path.resolve(repoRoot);
  const refs = Object.fromEntries(
    Object.entries(snap.refs).filter(
      ([name]) => !name.startsWith(`refs/heads/${RUN_BRANCH_PREFIX}`) || name === snap.branch,
    ),
  );
  const worktrees = snap.worktrees.filter((w) => !w.startsWith(runsDir) || path.resolve(w) === own);
  return { ...snap, refs, worktrees };
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

/** A branch- and file-name-safe slug of a goal's first words; "run" when nothing is left. */
export function slugOf(text: string): string {
  const words = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '') // "ü" → "u", not "u-"
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  let slug = '';
  for (const w of words) {
    const next = slug ? `${slug}-${w}` : w;
    if (next.length > MAX_SLUG) break;
    slug = next;
  }
  return slug || (words[0] ?? '').slice(0, MAX_SLUG) || 'run';
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
  const base = opts.name !== undefined ? checkWorktreeName(opts.name) : slugOf(opts.goal ?? '');
  const { root } = await locateRepo(opts.repoRoot);
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
