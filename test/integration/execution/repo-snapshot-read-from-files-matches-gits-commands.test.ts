// The snapshot reads HEAD, the worktrees and the stash from git's files (one git process instead of five). It must say
// exactly what git's own commands say, in the layouts that differ: packed refs, a linked worktree, a detached HEAD, a
// stash with several entries, a branch with no commits yet.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GitRepoState } from '../../../src/adapters/git/repo-state.js';
import { tempRepo } from '../../helpers/repo.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function stateOf(dir: string): GitRepoState {
  const work = path.join(dir, '.agent-collab');
  mkdirSync(work, { recursive: true });
  return new GitRepoState({
    repoRoot: dir,
    workdir: work,
    configDir: work,
    state: path.join(work, 'state.json'),
    debugLog: path.join(work, 'debug.log'),
    runs: path.join(work, 'runs'),
    history: path.join(work, 'history'),
    log: path.join(work, 'log.md'),
  });
}

/** What git's commands say, in the snapshot's terms. */
function byCommands(dir: string) {
  const git = (...args: string[]): { out: string; ok: boolean } => {
    try {
      return { out: execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: 'pipe' }), ok: true };
    } catch {
      return { out: '', ok: false };
    }
  };
  const symref = git('symbolic-ref', '-q', 'HEAD');
  const head = git('rev-parse', '-q', '--verify', 'HEAD');
  const refs: Record<string, string> = {};
  for (const line of git('for-each-ref', '--format=%(refname) %(objectname)').out.split('\n').filter(Boolean)) {
    const [name = '', oid = ''] = line.split(' ');
    if (name !== 'refs/stash' && !name.startsWith('refs/remotes/')) refs[name] = oid;
  }
  const stash = git('stash', 'list', '--format=%H%x00%gs')
    .out.split('\n')
    .filter(Boolean)
    .map((l) => l.split('\0'));
  return {
    branch: symref.ok ? symref.out.trim() : null,
    head: head.ok ? head.out.trim() : null,
    refs,
    worktrees: git('worktree', 'list', '--porcelain')
      .out.split('\n')
      .filter((l) => l.startsWith('worktree '))
      .map((l) => l.slice('worktree '.length)),
    stash: stash.map(([oid]) => oid),
    stashMessages: stash.map(([, message]) => message),
  };
}

async function fromFiles(dir: string) {
  const b = await stateOf(dir).take();
  const { branch, head, refs, worktrees, stash } = b.snapshot;
  return { branch, head, refs, worktrees, stash, stashMessages: b.stash.map((e) => e.message) };
}

describe('the repository snapshot read from git’s files', () => {
  it('matches git’s commands with packed refs, tags, a linked worktree and a stash of two entries', async () => {
    const repo = tempRepo();
    cleanups.push(repo.cleanup);
    const git = (...args: string[]): string => execFileSync('git', args, { cwd: repo.dir, encoding: 'utf8' });
    git('tag', 'v1');
    git('branch', 'side');
    git('pack-refs', '--all');
    git('branch', 'loose');
    writeFileSync(path.join(repo.dir, 'a.txt'), 'one\n');
    git('add', 'a.txt');
    git('stash', 'push', '-m', 'first: with a colon');
    writeFileSync(path.join(repo.dir, 'b.txt'), 'two\n');
    git('add', 'b.txt');
    git('stash', 'push', '-m', 'second');
    const linked = `${repo.dir}-linked`;
    cleanups.push(() => execFileSync('rm', ['-rf', linked]));
    git('worktree', 'add', '-q', '-b', 'wt', linked);

    const expected = byCommands(repo.dir);
    expect(expected.stash).toHaveLength(2);
    expect(expected.worktrees).toHaveLength(2);
    expect(await fromFiles(repo.dir)).toEqual(expected);
    // Seen from the linked worktree: its own HEAD, the same refs, worktrees and stash.
    const fromLinked = byCommands(linked);
    expect(fromLinked.branch).toBe('refs/heads/wt');
    expect(await fromFiles(linked)).toEqual(fromLinked);
  });

  it('matches git’s commands on a detached HEAD and on a branch with no commits yet', async () => {
    const repo = tempRepo();
    cleanups.push(repo.cleanup);
    const git = (...args: string[]): string => execFileSync('git', args, { cwd: repo.dir, encoding: 'utf8' });
    git('checkout', '-q', '--detach');
    const detached = byCommands(repo.dir);
    expect(detached.branch).toBeNull();
    expect(await fromFiles(repo.dir)).toEqual(detached);

    git('checkout', '-q', '--orphan', 'fresh');
    const unborn = byCommands(repo.dir);
    expect(unborn).toMatchObject({ branch: 'refs/heads/fresh', head: null });
    expect(await fromFiles(repo.dir)).toEqual(unborn);
  });
});
