// Sequentially the queue archives what the repo holds before each new run, but never the person's own unfinished
// run: it refuses to start, in one line. A run the queue left waiting that the person finished by hand
// (`agent-collab run --resume …`) gives the instruction its outcome without running it again.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import { runWith } from '../../../src/api/run.js';
import { queueRepo, type QueueRepo } from './queue-helpers.js';

let repo: QueueRepo | undefined;
afterEach(() => repo?.cleanup());

const fakes = () => ({
  planner: new FakeAgent('planner', { rules: [] }),
  reviewer: new FakeAgent('reviewer', { rules: [] }),
});

describe('agent-collab queue and runs it did not start', () => {
  it("refuses to start over the person's own unfinished run, touching nothing", async () => {
    repo = queueRepo();
    const own = await runWith({ cwd: repo.dir, goal: 'my own work', auto: false }, { agents: fakes() });
    expect(own.exitCode).toBe(3);
    repo.instruction('queued', '', 'add q.txt');

    await expect(repo.queue()).rejects.toThrow(
      /^the repo has an unfinished run the queue did not start: .*agent-collab run --resume/,
    );
    expect(existsSync(path.join(repo.inbox, 'queued.md'))).toBe(true);
    expect(repo.ls('reports')).toEqual([]);
    expect(repo.agents).toEqual([]);
  });

  it('takes the outcome of a waiting run the person finished by hand, without running it again', async () => {
    repo = queueRepo();
    repo.instruction('waits', '', 'add w.txt');
    const first = await repo.queue({ run: { auto: true, autoApprove: false } });
    expect(first.finished.map((f) => f.status)).toEqual(['WAITING']);
    // The person goes on with it as its report says, and it reaches DONE.
    const byHand = await runWith({ cwd: repo.dir, resume: true, auto: true, autoApprove: true }, { agents: fakes() });
    expect(byHand.phase).toBe('DONE');

    const runsBefore = repo.agents.length;
    const second = await repo.queue();
    expect(second.finished.map((f) => [f.instruction, f.status, f.reason])).toEqual([
      ['waits', 'SUCCESS', 'its run was finished outside the queue'],
    ]);
    expect(repo.agents.length).toBe(runsBefore);
    expect(repo.ls('inbox/done')).toEqual(['waits.md']);
    expect((await repo.report('waits')).data).toMatchObject({ status: 'SUCCESS', run_report: byHand.report });
  });
});
