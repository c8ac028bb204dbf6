// `clean` decides from a listing (no live pid there, the run DONE); a run started there right after (`run --resume`,
// or the TUI's new goal) takes the worktree's instance lock a moment before it writes its pid. The removal takes
// that lock itself: a worktree whose lock is held is kept, whatever the listing said.
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { lock } from 'proper-lockfile';
import { afterEach, describe, expect, it } from 'vitest';
import { removeRunWorktree, type RunListing } from '../../../src/adapters/git/run-worktree-list.js';
import { createRunWorktree, runWorktreesDir } from '../../../src/adapters/git/run-worktree.js';
import { tempRepo } from '../../helpers/repo.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

describe('agent-collab clean and a run starting', () => {
  it('keeps a worktree whose instance lock a starting run holds, and removes it once the lock is free', async () => {
    const repo = tempRepo();
    cleanups.push(repo.cleanup, () => rmSync(runWorktreesDir(repo.dir), { recursive: true, force: true }));
    const wt = await createRunWorktree({ repoRoot: repo.dir, name: 'finished' });
    // What `ls` showed a moment earlier: a finished run, nobody there.
    const row: RunListing = {
      name: wt.name,
      branch: wt.branch,
      path: wt.path,
      main: false,
      runWorktree: true,
      phase: 'DONE',
      running: false,
      stepsDone: 1,
      stepsTotal: 1,
      costUsd: 0,
      goal: 'g',
      endedAt: null,
    };
    const workdir = path.join(wt.path, '.agent-collab');
    // A run starting: the lock taken, its pid not written yet.
    const release = await lock(workdir, { lockfilePath: path.join(workdir, 'agent-collab.lock'), realpath: false });
    try {
      await expect(removeRunWorktree(row)).rejects.toThrow('a run is under way there');
      expect(existsSync(wt.path)).toBe(true);
    } finally {
      await release();
    }
    await removeRunWorktree(row);
    expect(existsSync(wt.path)).toBe(false);
  }, 30_000);
});
