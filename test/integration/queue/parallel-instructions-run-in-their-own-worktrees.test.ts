// `agent-collab queue --parallel 2`: two instructions run at once, each in its own git worktree on its own branch;
// both reach DONE with their step commits on their branches, while the person's checkout (HEAD, branch, files) is
// untouched and gets the reports and the inbox moves.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunWorktree } from '../../../src/adapters/git/run-worktree.js';
import { queueRepo, type QueueRepo } from './queue-helpers.js';

let repo: QueueRepo | undefined;
afterEach(() => repo?.cleanup());

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
const writes = (file: string) => ({
  rules: [{ when: { kind: 'execute_step' as const, step: 1 }, do: { writeFiles: { [file]: `${file}\n` } } }],
});

describe('agent-collab queue --parallel 2', () => {
  it('runs two instructions at once in their own worktrees, both DONE, the person’s checkout untouched', async () => {
    repo = queueRepo();
    repo.instruction('first', '', 'add first.txt');
    repo.instruction('second', '', 'add second.txt');
    const before = { head: git(repo.dir, 'rev-parse', 'HEAD'), branch: git(repo.dir, 'branch', '--show-current') };
    // agent-collab's own dir aside (the runs add it to .git/info/exclude, shared by the worktrees).
    const status = () =>
      git(repo!.dir, 'status', '--porcelain', '--untracked-files=all')
        .split('\n')
        .filter((l) => l && !l.startsWith('?? .agent-collab/'));
    const statusBefore = status();
    const result = await repo.queue(
      { parallel: 2, createWorktree: createRunWorktree },
      { first: writes('first.txt'), second: writes('second.txt') },
    );

    expect(result.exitCode).toBe(0);
    const started = result.events.flatMap((e) => (e.event === 'instruction_started' ? [e] : []));
    expect(started.map((e) => e.branch).sort()).toEqual(['agent-collab/first', 'agent-collab/second']);
    // Both started before either finished: they ran at the same time.
    const firstFinished = result.events.findIndex((e) => e.event === 'instruction_finished');
    expect(result.events.filter((e, n) => e.event === 'instruction_started' && n < firstFinished)).toHaveLength(2);
    for (const s of started) {
      expect(s.cwd).not.toBe(repo.dir);
      const file = `${s.instruction}.txt`;
      expect(readFileSync(path.join(s.cwd, file), 'utf8')).toBe(`${file}\n`);
      const log = git(repo.dir, 'log', '--format=%s', s.branch!);
      expect(log.split('\n').filter((l) => /^\[Step \d\] /.test(l))).toHaveLength(2);
    }
    for (const name of ['first', 'second'])
      expect((await repo.report(name)).data).toMatchObject({
        status: 'SUCCESS',
        phase: 'DONE',
        branch: `agent-collab/${name}`,
      });
    expect(repo.ls('inbox/done')).toEqual(['first.md', 'second.md']);
    // The person's checkout: same HEAD and branch, none of the runs' files, nothing new but agent-collab's own dir.
    expect(git(repo.dir, 'rev-parse', 'HEAD')).toBe(before.head);
    expect(git(repo.dir, 'branch', '--show-current')).toBe(before.branch);
    expect(status()).toEqual(statusBefore);
    expect(git(repo.dir, 'diff', 'HEAD')).toBe('');
    expect(existsSync(path.join(repo.dir, 'first.txt')) || existsSync(path.join(repo.dir, 'second.txt'))).toBe(false);
    expect(existsSync(path.join(repo.dir, '.agent-collab', 'state.json'))).toBe(false);
  });
});
