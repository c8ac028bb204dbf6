// Two `queue` processes on one inbox would both take every instruction and run each twice (twice the cost, two
// branches, the second move failing): the second one refuses at once with one line, and runs nothing. An instruction
// file the person deleted while its run went on still gets its report, and the queue goes on.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunWorktree } from '../../../src/adapters/git/run-worktree.js';
import { UserError } from '../../../src/core/errors.js';
import { queueRepo, type QueueRepo } from './queue-helpers.js';

let repo: QueueRepo | undefined;
afterEach(() => repo?.cleanup());

describe('agent-collab queue, one at a time per inbox', () => {
  it('a second queue started while one runs refuses with one line and runs no instruction twice', async () => {
    repo = queueRepo();
    repo.instruction('first', '', 'add first.txt');
    const parallel = { parallel: 2, createWorktree: createRunWorktree };
    const [a, b] = await Promise.allSettled([repo.queue(parallel), repo.queue(parallel)]);

    const ran = repo.agents.map((x) => x.instruction).sort();
    expect(ran).toEqual(['first']);
    const refused = [a, b].filter((r) => r.status === 'rejected');
    expect(refused).toHaveLength(1);
    const err = (refused[0] as PromiseRejectedResult).reason as unknown;
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(/^another `agent-collab queue` .*inbox/);
    expect((err as Error).message).not.toContain('\n');
    expect(repo.ls('inbox/done')).toEqual(['first.md']);

    // The lock goes with the queue: the next one runs.
    repo.instruction('second', '', 'add second.txt');
    expect((await repo.queue()).exitCode).toBe(0);
    expect(repo.ls('inbox/done')).toEqual(['first.md', 'second.md']);
    expect(repo.ls('inbox')).toEqual(['done']);
  }, 60_000);

  it('reports an instruction whose file was deleted while its run went on, and goes on with the next', async () => {
    repo = queueRepo();
    repo.instruction('a-gone', '', 'add a.txt');
    repo.instruction('b-next', '', 'add b.txt');
    const inbox = repo.inbox;
    const result = await repo.queue({
      onEvent: (e) => {
        if (e.event === 'instruction_started' && e.instruction === 'a-gone')
          rmSync(path.join(inbox, 'a-gone.md'), { force: true });
      },
    });

    expect(result.exitCode).toBe(0);
    expect(result.finished.map((f) => [f.instruction, f.status])).toEqual([
      ['a-gone', 'SUCCESS'],
      ['b-next', 'SUCCESS'],
    ]);
    expect((await repo.report('a-gone')).data).toMatchObject({ status: 'SUCCESS', moved_to: null });
    expect(repo.ls('inbox/done')).toEqual(['b-next.md']);
  }, 60_000);
});
