// The guard's exemption for other runs (issue 21) covers only what those runs move: the branches checked out in
// their worktrees under `<repo>-agent-collab/`, and those worktrees. A finished run's branch whose worktree was
// cleaned (the branch the person merges later) stays guarded, in the main checkout and in a run worktree alike; so
// does a run's own branch when its agent switched HEAD away from it first; and a worktree an agent adds there on an
// existing branch is not taken for a run's.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunWorktree, runWorktreesDir } from '../../../src/adapters/git/run-worktree.js';
import { repoStateOf } from '../../helpers/boxed-workspace.js';
import { commitStep, guardedBesideAnotherRun } from '../../helpers/parallel-runs.js';
import { tempRepo } from '../../helpers/repo.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

const git = (dir: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

function repoWithRuns() {
  const repo = tempRepo();
  cleanups.push(repo.cleanup, () => rmSync(runWorktreesDir(repo.dir), { recursive: true, force: true }));
  return repo;
}

/** A run that finished and was cleaned: its branch holds a step commit, its worktree is gone. */
async function finishedRun(repo: string, name: string): Promise<string> {
  const wt = await createRunWorktree({ repoRoot: repo, name });
  commitStep(wt.path, `${name}.txt`, 'done');
  git(repo, 'worktree', 'remove', wt.path);
  return git(repo, 'rev-parse', wt.branch);
}

describe('the guard and other runs’ branches', () => {
  it('catches and undoes a move of a finished run’s branch from the main checkout', async () => {
    const repo = repoWithRuns();
    const done = await finishedRun(repo.dir, 'fix-login');
    const evil = git(repo.dir, 'commit-tree', '-m', 'evil', '-p', done, `${done}^{tree}`);
    const guard = repoStateOf(repo.dir);
    const before = await guard.take();

    git(repo.dir, 'update-ref', 'refs/heads/agent-collab/fix-login', evil);
    const { after, changes } = await guard.compare(before);
    expect(changes).toContain(`branch 'agent-collab/fix-login' moved from ${done.slice(0, 7)} to ${evil.slice(0, 7)}`);
    await guard.restore(before, after);
    expect(git(repo.dir, 'rev-parse', 'agent-collab/fix-login')).toBe(done);
  }, 30_000);

  it('catches a finished run’s branch moved or deleted from another run’s worktree, and its own branch moved after a checkout', async () => {
    const repo = repoWithRuns();
    const done = await finishedRun(repo.dir, 'fix-login');
    const mine = await createRunWorktree({ repoRoot: repo.dir, name: 'mine' });
    const own = git(mine.path, 'rev-parse', 'HEAD');
    const guard = repoStateOf(mine.path);

    let before = await guard.take();
    git(mine.path, 'branch', '-D', 'agent-collab/fix-login');
    let r = await guard.compare(before);
    expect(r.changes).toContain(`branch 'agent-collab/fix-login' deleted (it was at ${done.slice(0, 7)})`);
    await guard.restore(before, r.after);
    expect(git(repo.dir, 'rev-parse', 'agent-collab/fix-login')).toBe(done);

    // HEAD switched to a new branch first, then the run's own branch pointed elsewhere.
    before = await guard.take();
    git(mine.path, 'checkout', '-q', '-b', 'tmp');
    git(mine.path, 'update-ref', 'refs/heads/agent-collab/mine', done);
    r = await guard.compare(before);
    expect(r.changes).toContain(`branch 'agent-collab/mine' moved from ${own.slice(0, 7)} to ${done.slice(0, 7)}`);
    await guard.restore(before, r.after);
    expect(git(repo.dir, 'rev-parse', 'agent-collab/mine')).toBe(own);
    expect(git(mine.path, 'symbolic-ref', 'HEAD')).toBe('refs/heads/agent-collab/mine');
    expect(git(repo.dir, 'branch', '--list', 'tmp')).toBe('');
  }, 30_000);

  it('catches a new agent-collab/* branch made when no run worktree is being made', async () => {
    const repo = repoWithRuns();
    const guard = repoStateOf(repo.dir);
    const before = await guard.take();

    git(repo.dir, 'branch', 'agent-collab/sneaky');
    const { after, changes } = await guard.compare(before);
    expect(changes).toContain("branch 'agent-collab/sneaky' created");
    await guard.restore(before, after);
    expect(git(repo.dir, 'branch', '--list', 'agent-collab/sneaky')).toBe('');
  }, 30_000);

  it('takes a worktree added under the runs’ dir on an existing branch for the agent’s, not a run’s', async () => {
    const repo = repoWithRuns();
    const done = await finishedRun(repo.dir, 'fix-login');
    const guard = repoStateOf(repo.dir);
    const before = await guard.take();

    const fake = path.join(runWorktreesDir(repo.dir), 'fix-login');
    git(repo.dir, 'worktree', 'add', '-q', fake, 'agent-collab/fix-login');
    const evil = git(fake, 'commit-tree', '-m', 'evil', '-p', done, `${done}^{tree}`);
    git(fake, 'update-ref', 'refs/heads/agent-collab/fix-login', evil);
    const { after, changes } = await guard.compare(before);
    expect(changes).toContain(`worktree added at ${fake}`);
    expect(changes.join('\n')).toContain("branch 'agent-collab/fix-login' moved");
    await guard.restore(before, after);
    expect(git(repo.dir, 'rev-parse', 'agent-collab/fix-login')).toBe(done);
    expect(git(repo.dir, 'worktree', 'list', '--porcelain')).not.toContain(fake);
  }, 30_000);

  it('still leaves alone what other runs do meanwhile: a step commit, a run started and finished, a worktree cleaned', async () => {
    const repo = repoWithRuns();
    const { other, guard, before } = await guardedBesideAnotherRun(repo.dir);

    commitStep(other.path, 'o.txt', 'other');
    git(repo.dir, 'worktree', 'remove', other.path); // `clean` after it finished
    await finishedRun(repo.dir, 'quick'); // started and cleaned within the turn
    await createRunWorktree({ repoRoot: repo.dir, name: 'third' });
    expect((await guard.compare(before)).changes).toEqual([]);
  }, 30_000);
});
