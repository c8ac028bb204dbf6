import { describe, expect, it } from 'vitest';
import { unsafeRepoState, type RepoFacts } from '../../../src/core/repo-safety.js';

const CLEAN: RepoFacts = {
  rebase: false,
  am: false,
  merge: false,
  cherryPick: false,
  revert: false,
  bisect: false,
  detached: false,
  hasCommits: true,
};
const START = { allowDetached: false, atStart: true };

describe('unsafe repository states', () => {
  it('a clean repository on a branch is safe', () => {
    expect(unsafeRepoState(CLEAN, START)).toBeNull();
  });

  it('each operation under way is named with how to finish or abort it', () => {
    const cases: Array<[Partial<RepoFacts>, string, string]> = [
      [{ rebase: true, detached: true }, 'rebase', 'git rebase --abort'],
      [{ rebase: true, am: true }, 'am', 'git am --abort'],
      [{ merge: true }, 'merge', 'git merge --abort'],
      [{ cherryPick: true }, 'cherry-pick', 'git cherry-pick --abort'],
      [{ revert: true }, 'revert', 'git revert --abort'],
      [{ bisect: true, detached: true }, 'bisect', 'git bisect reset'],
    ];
    for (const [facts, state, hint] of cases) {
      const r = unsafeRepoState({ ...CLEAN, ...facts }, { allowDetached: true, atStart: true });
      expect(r?.state).toBe(state);
      expect(r?.message).toContain(hint);
      expect(r?.message).not.toContain('\n');
    }
  });

  it('a detached HEAD is refused unless allowed', () => {
    expect(unsafeRepoState({ ...CLEAN, detached: true }, START)?.message).toContain('--allow-detached');
    expect(unsafeRepoState({ ...CLEAN, detached: true }, { ...START, allowDetached: true })).toBeNull();
  });

  it('a repository without commits is refused at the start with a hint, but not at a step commit', () => {
    expect(unsafeRepoState({ ...CLEAN, hasCommits: false }, START)?.message).toContain('git commit --allow-empty');
    expect(unsafeRepoState({ ...CLEAN, hasCommits: false }, { ...START, atStart: false })).toBeNull();
  });
});
