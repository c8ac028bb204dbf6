// A run worktree (`git worktree add` on agent-collab/<slug>; its `.git` a file pointing into the shared common dir)
// with the real bubblewrap: the boxed step commit lands on the run's branch; a commit hook that moves the person's
// branch or writes the shared git config is caught and undone; a boxed command cannot write the main checkout. The
// guard leaves other runs' branches and worktrees alone (they move with their own step commits) and still catches
// a move of its own branch or of the person's.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunWorktree } from '../../../src/adapters/git/run-worktree.js';
import { boxedWorkspace, preCommitHook } from '../../helpers/boxed-workspace.js';
import { commitStep, guardedBesideAnotherRun } from '../../helpers/parallel-runs.js';
import { tempRepo } from '../../helpers/repo.js';
import { runBoxed } from '../confinement/helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

const git = (dir: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

function repoWithRun() {
  const repo = tempRepo();
  cleanups.push(repo.cleanup, () => rmSync(`${repo.dir}-agent-collab`, { recursive: true, force: true }));
  return repo;
}

describe('a run worktree', () => {
  it('gets the boxed step commit on its branch; a hook moving the person’s branch or writing the shared config is undone', async () => {
    const repo = repoWithRun();
    const wt = await createRunWorktree({ repoRoot: repo.dir, name: 'boxed' });
    const mainHead = git(repo.dir, 'rev-parse', 'main');
    const mainIndex = readFileSync(path.join(repo.dir, '.git', 'index'));
    const { ws } = boxedWorkspace(wt.path);

    const start = await ws.snapshot();
    writeFileSync(path.join(wt.path, 'one.txt'), 'one\n');
    const first = await ws.commitStep({ runId: 'r', step: 1, summary: 'One', baseTree: start, allowSecrets: false });
    expect(first).toMatchObject({ kind: 'committed', files: ['one.txt'] });
    expect(first.kind === 'committed' && first.hash).toBe(git(wt.path, 'rev-parse', 'agent-collab/boxed'));

    const config = readFileSync(path.join(repo.dir, '.git', 'config'), 'utf8');
    preCommitHook(
      repo.dir, // the common dir's hooks: a linked worktree runs them too
      `#!/bin/sh\ngit update-ref refs/heads/main HEAD\ngit config --file "$(git rev-parse --git-common-dir)/config" core.pager evil\necho hacked > ${repo.dir}/README.md\nexit 0\n`,
    );
    const base = await ws.snapshot();
    writeFileSync(path.join(wt.path, 'two.txt'), 'two\n');
    const second = await ws.commitStep({ runId: 'r', step: 2, summary: 'Two', baseTree: base, allowSecrets: false });

    expect(second.kind).not.toBe('committed');
    expect(git(repo.dir, 'rev-parse', 'main')).toBe(mainHead);
    expect(readFileSync(path.join(repo.dir, '.git', 'config'), 'utf8')).toBe(config);
    expect(readFileSync(path.join(repo.dir, 'README.md'), 'utf8')).toBe('# test\n');
    expect(readFileSync(path.join(repo.dir, '.git', 'index'))).toEqual(mainIndex);
    expect(git(wt.path, 'rev-parse', 'agent-collab/boxed')).toBe(first.kind === 'committed' ? first.hash : '');
  }, 60_000);

  it('a boxed command there writes its own tree, not the main checkout nor the shared refs', async () => {
    const repo = repoWithRun();
    const wt = await createRunWorktree({ repoRoot: repo.dir, goal: 'Box me' });
    const refs = git(repo.dir, 'for-each-ref');
    const r = runBoxed(
      { repo: wt.path, workdir: '.agent-collab', home: repo.home, tmpDir: '/tmp' },
      `echo mine > own.txt; echo hacked > ${repo.dir}/README.md; git update-ref refs/heads/main HEAD~0; git branch sneaky`,
    );
    expect(readFileSync(path.join(wt.path, 'own.txt'), 'utf8')).toBe('mine\n');
    expect(readFileSync(path.join(repo.dir, 'README.md'), 'utf8')).toBe('# test\n');
    expect(git(repo.dir, 'for-each-ref')).toBe(refs);
    expect(r.output).toMatch(/Read-only file system|cannot lock ref|unable to/);
  }, 30_000);

  it('the guard ignores other runs’ branches and worktrees, and catches its own branch or the person’s moving', async () => {
    const repo = repoWithRun();
    const { other, guard, before } = await guardedBesideAnotherRun(repo.dir);

    // Another run commits a step and a third run starts, as `queue --parallel` does.
    commitStep(other.path, 'o.txt', 'other');
    await createRunWorktree({ repoRoot: repo.dir, name: 'third' });
    expect((await guard.compare(before)).changes).toEqual([]);

    git(repo.dir, 'update-ref', 'refs/heads/agent-collab/mine', 'agent-collab/other');
    git(repo.dir, 'branch', 'person-branch');
    const { changes } = await guard.compare(before);
    expect(changes.join('\n')).toContain('HEAD moved from'); // its own branch, checked out there
    expect(changes.join('\n')).toContain("branch 'person-branch'");
  }, 30_000);
});
