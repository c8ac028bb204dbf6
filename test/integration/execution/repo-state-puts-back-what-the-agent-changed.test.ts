// The repository state a write turn must leave alone, taken, compared and put back by GitRepoState against real
// git: the edge cases the end-to-end tests do not reach (detached HEAD, a dirty worktree, a ref moved again, the
// person's staging, agent-collab's own writes during the turn, a branch with no commits yet).
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repoStateOf } from '../../helpers/boxed-workspace.js';
import { tempRepo } from '../../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function setup(opts: { commits?: boolean } = {}) {
  const repo = tempRepo();
  cleanup = repo.cleanup;
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: repo.dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (opts.commits === false) git('update-ref', '-d', 'refs/heads/main');
  const work = path.join(repo.dir, '.agent-collab');
  mkdirSync(path.join(work, 'runs'), { recursive: true });
  writeFileSync(path.join(work, 'plan.md'), '# plan\n');
  writeFileSync(path.join(work, 'log.md'), '# agent-collab log\n');
  writeFileSync(path.join(work, 'state.json'), '{}');
  const state = repoStateOf(repo.dir);
  return { repo, git, work, state };
}

describe('GitRepoState', () => {
  it('agent-collab’s own writes during a turn are no change; anything else in its files is', async () => {
    const { work, state } = setup();
    const before = await state.take();
    appendFileSync(path.join(work, 'log.md'), '\n## entry\n');
    writeFileSync(path.join(work, 'state.json'), '{"saved":true}');
    // ledger.md is rendered from the state whenever the ledger changes, during a step's review too.
    writeFileSync(path.join(work, 'ledger.md'), '# Issue ledger\n');
    writeFileSync(path.join(work, 'debug.log'), 'x');
    writeFileSync(path.join(work, 'debug.log.1'), 'x');
    writeFileSync(path.join(work, 'runs', 'timeline.md'), 'x');
    expect((await state.compare(before)).changes).toEqual([]);
    writeFileSync(path.join(work, 'log.md'), '# rewritten\n');
    writeFileSync(path.join(work, 'debug.log.bak'), 'x');
    expect((await state.compare(before)).changes).toEqual([
      '.agent-collab/debug.log.bak created',
      '.agent-collab/log.md changed',
    ]);
  });

  it('the person’s own hook is put back as it was, still executable; a hook made executable is a change', async () => {
    const { repo, state } = setup();
    const hook = path.join(repo.dir, '.git', 'hooks', 'post-commit');
    const sample = path.join(repo.dir, '.git', 'hooks', 'mine.sample');
    writeFileSync(hook, '#!/bin/sh\necho mine\n', { mode: 0o755 });
    writeFileSync(sample, '#!/bin/sh\n', { mode: 0o644 });
    const before = await state.take();
    writeFileSync(hook, '#!/bin/sh\ntouch PWNED\n');
    chmodSync(sample, 0o755);
    const cmp = await state.compare(before);
    expect(cmp.changes).toEqual(['.git/hooks/mine.sample changed', '.git/hooks/post-commit changed']);
    await state.restore(before, cmp.after);
    expect(readFileSync(hook, 'utf8')).toBe('#!/bin/sh\necho mine\n');
    expect(statSync(hook).mode & 0o777).toBe(0o755);
    expect(statSync(sample).mode & 0o777).toBe(0o644);
    // Only the backups of the changed versions are new now.
    expect((await state.compare(before)).changes.filter((c) => !c.startsWith('.agent-collab/backups/'))).toEqual([]);
  });

  it('hooks under a core.hooksPath in the working tree (.husky/) are guarded: agent-collab’s commit runs them unconfined', async () => {
    const { repo, git, state } = setup();
    const hook = path.join(repo.dir, '.husky', 'pre-commit');
    mkdirSync(path.dirname(hook));
    writeFileSync(hook, 'npm test\n');
    git('config', 'core.hooksPath', '.husky');
    const before = await state.take();
    writeFileSync(hook, 'npm test; echo pwned >> ~/.bashrc\n');
    const cmp = await state.compare(before);
    expect(cmp.changes).toEqual(['.husky/pre-commit changed']);
    await state.restore(before, cmp.after);
    expect(readFileSync(hook, 'utf8')).toBe('npm test\n');
  });

  it('a remote-tracking branch moved by a fetch or an allowed push is no change; a local branch is', async () => {
    const { git, state } = setup();
    const before = await state.take();
    git('update-ref', 'refs/remotes/origin/main', 'HEAD');
    expect((await state.compare(before)).changes).toEqual([]);
    git('branch', 'sneaky');
    expect((await state.compare(before)).changes).toEqual(["branch 'sneaky' created"]);
  });

  it('a detached HEAD goes back onto its branch; a HEAD that was detached is detached again', async () => {
    const { git, state } = setup();
    const head = git('rev-parse', 'HEAD').trim();
    let before = await state.take();
    git('checkout', '-q', '--detach');
    let cmp = await state.compare(before);
    expect(cmp.changes).toEqual(["HEAD detached (was on branch 'main')"]);
    await state.restore(before, cmp.after);
    expect(git('symbolic-ref', 'HEAD').trim()).toBe('refs/heads/main');

    git('checkout', '-q', '--detach');
    before = await state.take();
    git('checkout', '-q', 'main');
    cmp = await state.compare(before);
    expect(cmp.changes).toEqual(["branch 'main' checked out (HEAD was detached)"]);
    await state.restore(before, cmp.after);
    expect(() => git('symbolic-ref', '-q', 'HEAD')).toThrow();
    expect(git('rev-parse', 'HEAD').trim()).toBe(head);
  });

  it('the person’s staged file is staged again after the agent’s commit is taken back', async () => {
    const { repo, git, state } = setup();
    writeFileSync(path.join(repo.dir, 'mine.txt'), 'mine\n');
    git('add', 'mine.txt');
    const before = await state.take();
    git('commit', '-q', '-m', 'agent');
    const cmp = await state.compare(before);
    const undone = await state.restore(before, cmp.after);
    expect(undone).toContain('the index (staged changes) put back as it was before the turn');
    expect(git('status', '--porcelain', '--untracked-files=no')).toBe('A  mine.txt\n');
  });

  it('a worktree with changes is left with its branch, and said so', async () => {
    const { repo, git, state } = setup();
    const wt = path.join(repo.home, 'wt');
    const before = await state.take();
    git('worktree', 'add', '-q', wt, '-b', 'wt-branch');
    writeFileSync(path.join(wt, 'work.txt'), 'unsaved\n');
    const cmp = await state.compare(before);
    const undone = await state.restore(before, cmp.after);
    expect(undone.join('\n')).toMatch(/worktree .*wt left in place .*git worktree remove --force/);
    expect(undone).toContain("branch 'wt-branch' left: it is checked out in a worktree that was kept");
    expect(readFileSync(path.join(wt, 'work.txt'), 'utf8')).toBe('unsaved\n');
    expect(git('rev-parse', '-q', '--verify', 'refs/heads/wt-branch').trim()).toMatch(/^[0-9a-f]{40}$/);
  });

  it('a ref moved again after the comparison is not overwritten', async () => {
    const { git, state } = setup();
    const before = await state.take();
    git('tag', 'sneaky');
    git('commit', '-q', '--allow-empty', '-m', 'agent');
    const cmp = await state.compare(before);
    git('commit', '-q', '--allow-empty', '-m', 'someone else, later');
    const later = git('rev-parse', 'HEAD').trim();
    const undone = await state.restore(before, cmp.after);
    expect(undone.join('\n')).toMatch(/could not restore the refs/);
    expect(git('rev-parse', 'refs/heads/main').trim()).toBe(later);
    expect(git('tag').trim()).toBe('sneaky'); // one transaction: nothing half-restored
  });

  it('on a branch with no commits yet, the agent’s first commit is taken back', async () => {
    const { git, state } = setup({ commits: false });
    const before = await state.take();
    git('commit', '-q', '--allow-empty', '-m', 'agent');
    const cmp = await state.compare(before);
    expect(cmp.changes).toEqual([
      expect.stringMatching(/^HEAD moved from \(no commit\) to [0-9a-f]{7}$/),
      "branch 'main' created",
    ]);
    await state.restore(before, cmp.after);
    expect(git('symbolic-ref', 'HEAD').trim()).toBe('refs/heads/main');
    expect(() => git('rev-parse', '-q', '--verify', 'HEAD')).toThrow();
  });
});
