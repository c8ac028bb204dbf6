// Repository states a run must not start in, nor commit a step into: an operation of git's under way (its files in
// the git dir), a detached HEAD, a repository without commits. Pure: the git adapter reads the facts.

export interface RepoFacts {
  /** `rebase-merge/` or `rebase-apply/` (am's too) exists. */
  rebase: boolean;
  /** `rebase-apply/applying`: a `git am` rather than a rebase. */
  am: boolean;
  merge: boolean;
  cherryPick: boolean;
  revert: boolean;
  bisect: boolean;
  /** HEAD points at a commit, not at a branch. */
  detached: boolean;
  /** HEAD resolves to a commit. */
  hasCommits: boolean;
}

export type UnsafeState = 'rebase' | 'am' | 'merge' | 'cherry-pick' | 'revert' | 'bisect' | 'detached' | 'no-commits';

export interface Unsafe {
  state: UnsafeState;
  /** One line: what is going on and what to do. */
  message: string;
}

const AGAIN = 'then run agent-collab again';

const MESSAGES: Record<UnsafeState, string> = {
  rebase: `a rebase is in progress: finish it (git rebase --continue) or abort it (git rebase --abort), ${AGAIN}`,
  am: `a git am is in progress: finish it (git am --continue) or abort it (git am --abort), ${AGAIN}`,
  merge: `a merge is in progress: finish it (git commit) or abort it (git merge --abort), ${AGAIN}`,
  'cherry-pick': `a cherry-pick is in progress: finish it (git cherry-pick --continue) or abort it (git cherry-pick --abort), ${AGAIN}`,
  revert: `a revert is in progress: finish it (git revert --continue) or abort it (git revert --abort), ${AGAIN}`,
  bisect: `a bisect is in progress: end it (git bisect reset), ${AGAIN}`,
  detached: `HEAD is detached (no branch is checked out): check out a branch (git switch <branch>, or git switch -c <new-branch>), ${AGAIN} — or pass --allow-detached to commit the steps onto the detached HEAD`,
  'no-commits': `the repository has no commits yet: make a first commit (e.g. git commit --allow-empty -m "initial commit"), ${AGAIN}`,
};

export interface SafetyOptions {
  /** `--allow-detached`: steps may be committed onto a detached HEAD. */
  allowDetached: boolean;
  /** Before the run starts a repository without commits is refused; a step commit may make the first one. */
  atStart: boolean;
}

/** The first reason the repository is not safe to work in, or null. Operations first: a rebase detaches HEAD too. */
export function unsafeRepoState(f: RepoFacts, opts: SafetyOptions): Unsafe | null {
  const state: UnsafeState | null = f.rebase
    ? f.am
      ? 'am'
      : 'rebase'
    : f.merge
      ? 'merge'
      : f.cherryPick
        ? 'cherry-pick'
        : f.revert
          ? 'revert'
          : f.bisect
            ? 'bisect'
            : f.detached && !opts.allowDetached
              ? 'detached'
              : !f.hasCommits && opts.atStart
                ? 'no-commits'
                : null;
  return state ? { state, message: MESSAGES[state] } : null;
}
