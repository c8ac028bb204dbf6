// Reads what core/repo-safety.ts judges: the files git leaves in the git dir while an operation is under way, and
// where HEAD points. `--git-path` finds them in a linked worktree's own git dir too.
import { access } from 'node:fs/promises';
import { UserError } from '../../core/errors.js';
import { unsafeRepoState, type RepoFacts, type SafetyOptions, type Unsafe } from '../../core/repo-safety.js';
import { runGit } from './git.js';
import { GitPathsOnce, OPERATION_MARKERS, type GitPathName } from './git-paths.js';

const MARKERS: readonly GitPathName[] = OPERATION_MARKERS;

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** `paths`: the session's git paths, read once (a check without them asks git for them). */
export async function readRepoFacts(
  repoRoot: string,
  signal?: AbortSignal,
  paths: GitPathsOnce = new GitPathsOnce(repoRoot),
): Promise<RepoFacts> {
  const [files, symbolic, head] = await Promise.all([
    paths.get().then((p) => MARKERS.map((m) => p.gitPath(m))),
    runGit(repoRoot, ['symbolic-ref', '-q', 'HEAD'], { signal }),
    runGit(repoRoot, ['rev-parse', '-q', '--verify', 'HEAD^{commit}'], { signal }),
  ]);
  const present = await Promise.all(files.map((f) => exists(f)));
  const has = (m: GitPathName): boolean => present[MARKERS.indexOf(m)] === true;
  return {
    rebase: has('rebase-merge') || has('rebase-apply'),
    am: has('rebase-apply/applying'),
    merge: has('MERGE_HEAD'),
    cherryPick: has('CHERRY_PICK_HEAD'),
    revert: has('REVERT_HEAD'),
    bisect: has('BISECT_LOG'),
    // `symbolic-ref -q` exits 1 (and says nothing) exactly when HEAD is detached.
    detached: symbolic.exitCode === 1 && symbolic.stderr.trim() === '',
    hasCommits: head.exitCode === 0,
  };
}

/** The repository's unsafe state, or null. */
export async function checkRepoSafety(
  repoRoot: string,
  opts: SafetyOptions,
  signal?: AbortSignal,
  paths?: GitPathsOnce,
): Promise<Unsafe | null> {
  return unsafeRepoState(await readRepoFacts(repoRoot, signal, paths), opts);
}

/** Before anything of a run happens: an unsafe repository ends the start with its one line (exit 2). */
export async function refuseUnsafeRepo(repoRoot: string, allowDetached: boolean): Promise<void> {
  const unsafe = await checkRepoSafety(repoRoot, { allowDetached, atStart: true });
  if (unsafe) throw new UserError(unsafe.message);
}
