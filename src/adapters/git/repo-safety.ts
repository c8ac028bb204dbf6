// Reads what core/repo-safety.ts judges: the files git leaves in the git dir while an operation is under way, and
// where HEAD points. `--git-path` finds them in a linked worktree's own git dir too.
import { access } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import { unsafeRepoState, type RepoFacts, type SafetyOptions, type Unsafe } from '../../core/repo-safety.js';
import { firstLine, runGit } from './git.js';

const MARKERS = [
  'rebase-merge',
  'rebase-apply',
  'rebase-apply/applying',
  'MERGE_HEAD',
  'CHERRY_PICK_HEAD',
  'REVERT_HEAD',
  'BISECT_LOG',
] as const;

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/**
 * Where the markers are, per repository: they do not move during a run, and the check runs before every step
 * commit, where each git process costs 20–40 ms on a loaded machine (measured).
 */
const markerFiles = new Map<string, Promise<string[]>>();

function markersOf(repoRoot: string): Promise<string[]> {
  let files = markerFiles.get(repoRoot);
  if (!files) {
    files = runGit(repoRoot, ['rev-parse', ...MARKERS.flatMap((m) => ['--git-path', m])]).then((r) => {
      if (r.exitCode !== 0) throw new Error(`could not read the repository's state: ${firstLine(r.stderr)}`);
      return r.stdout
        .split('\n')
        .slice(0, MARKERS.length)
        .map((f) => path.resolve(repoRoot, f));
    });
    markerFiles.set(repoRoot, files);
    files.catch(() => markerFiles.delete(repoRoot)); // asked again next time
  }
  return files;
}

export async function readRepoFacts(repoRoot: string, signal?: AbortSignal): Promise<RepoFacts> {
  const [files, symbolic, head] = await Promise.all([
    markersOf(repoRoot), // not stopped by `signal`: shared by every later check
    runGit(repoRoot, ['symbolic-ref', '-q', 'HEAD'], { signal }),
    runGit(repoRoot, ['rev-parse', '-q', '--verify', 'HEAD^{commit}'], { signal }),
  ]);
  const present = await Promise.all(files.map((f) => exists(f)));
  const has = (m: (typeof MARKERS)[number]): boolean => present[MARKERS.indexOf(m)] === true;
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
): Promise<Unsafe | null> {
  return unsafeRepoState(await readRepoFacts(repoRoot, signal), opts);
}

/** Before anything of a run happens: an unsafe repository ends the start with its one line (exit 2). */
export async function refuseUnsafeRepo(repoRoot: string, allowDetached: boolean): Promise<void> {
  const unsafe = await checkRepoSafety(repoRoot, { allowDetached, atStart: true });
  if (unsafe) throw new UserError(unsafe.message);
}
