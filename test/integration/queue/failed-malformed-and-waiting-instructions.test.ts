// What the queue does with instructions that do not succeed: a malformed file and a failing run are reported FAILED
// (with a one-line reason) and moved to inbox/failed/, and the queue goes on; one that needs a person stays in the
// inbox with a WAITING report, the queue stops there, and the next `queue` goes on with that same run.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireInstanceLock } from '../../../src/persistence/instance-lock.js';
import type { InstructionFinishedEvent } from '../../../src/queue/queue-events.js';
import { queueRepo, type QueueRepo } from './queue-helpers.js';

let repo: QueueRepo | undefined;
afterEach(() => repo?.cleanup());

const finishedOf = (events: Array<{ event: string }>) =>
  Object.fromEntries(
    events
      .filter((e): e is InstructionFinishedEvent => e.event === 'instruction_finished')
      .map((e) => [e.instruction, e]),
  );

describe('agent-collab queue, instructions that do not succeed', () => {
  it('reports a malformed file and a failing run FAILED with a reason in failed/, and goes on with the rest', async () => {
    repo = queueRepo();
    writeFileSync(path.join(repo.inbox, 'a-bad-yaml.md'), '---\npriority: [1\n---\n\ndo it\n');
    repo.instruction('b-typo', 'priorty: 2', 'do it');
    repo.instruction('c-no-goal', 'priority: 2', '');
    repo.instruction('d-fails', 'priority: 1', 'plan something');
    repo.instruction('e-works', '', 'add e.txt');
    const failing = {
      rules: [
        {
          when: { kind: 'write_plan' as const },
          do: { fail: { kind: 'agent_error' as const, message: 'the model refused' } },
        },
      ],
    };
    const result = await repo.queue({}, { 'd-fails': failing });

    expect(result.exitCode).toBe(4);
    const f = finishedOf(result.events);
    expect(f['a-bad-yaml']).toMatchObject({
      status: 'FAILED',
      reason: expect.stringMatching(/^a-bad-yaml\.md has invalid frontmatter/),
    });
    expect(f['b-typo']).toMatchObject({ status: 'FAILED', reason: 'b-typo.md unknown frontmatter key(s) "priorty"' });
    expect(f['c-no-goal']).toMatchObject({ status: 'FAILED', reason: expect.stringContaining('has no goal') });
    expect(f['d-fails']).toMatchObject({
      status: 'FAILED',
      exit_code: 4,
      reason: expect.stringContaining('the model refused'),
    });
    for (const e of Object.values(f)) expect(e.reason).not.toContain('\n');
    // The queue went on after them: the last one ran in the repo and succeeded.
    expect(f['e-works']).toMatchObject({ status: 'SUCCESS' });
    expect(repo.ls('inbox/failed')).toEqual(['a-bad-yaml.md', 'b-typo.md', 'c-no-goal.md', 'd-fails.md']);
    expect(repo.ls('inbox/done')).toEqual(['e-works.md']);
    const { data } = await repo.report('d-fails');
    expect(data).toMatchObject({ status: 'FAILED', moved_to: '.agent-collab/inbox/failed/d-fails.md' });
    expect((await repo.report('b-typo')).data).toMatchObject({ status: 'FAILED', exit_code: null });
  });

  it('leaves one that needs a person in the inbox as WAITING, stops, and the next queue goes on with its run', async () => {
    repo = queueRepo();
    repo.instruction('a-waits', 'priority: 1', 'add a.txt');
    repo.instruction('b-next', '', 'add b.txt');
    // Without --auto-approve the approved plan waits for the person's go.
    const first = await repo.queue({ run: { auto: true, autoApprove: false } });

    expect(first.exitCode).toBe(3);
    expect(finishedOf(first.events)['a-waits']).toMatchObject({ status: 'WAITING', moved_to: null, exit_code: 3 });
    expect(first.notStarted).toEqual(['b-next']);
    expect(existsSync(path.join(repo.inbox, 'a-waits.md'))).toBe(true);
    expect(existsSync(path.join(repo.inbox, 'b-next.md'))).toBe(true);
    const waiting = await repo.report('a-waits');
    expect(waiting.data).toMatchObject({ status: 'WAITING', phase: 'APPROVED', run_id: expect.any(String) });
    expect(waiting.content).toContain('agent-collab run --resume --decide');

    const second = await repo.queue({ run: { auto: true, autoApprove: true } });
    expect(second.exitCode).toBe(0);
    const started = second.events.filter((e) => e.event === 'instruction_started');
    expect(started.map((e) => e.event === 'instruction_started' && [e.instruction, e.resumed])).toEqual([
      ['a-waits', true],
      ['b-next', false],
    ]);
    // The same run went on: the report names the run that waited.
    expect((await repo.report('a-waits')).data).toMatchObject({ status: 'SUCCESS', run_id: waiting.data.run_id });
    expect(repo.ls('inbox/done')).toEqual(['a-waits.md', 'b-next.md']);
  });

  it('stops on a run that cannot be made (another agent-collab holds the repo), the instruction kept in the inbox', async () => {
    repo = queueRepo();
    repo.instruction('a-kept', '', 'add a.txt');
    repo.instruction('b-kept', '', 'add b.txt');
    const release = await acquireInstanceLock(path.join(repo.dir, '.agent-collab'));
    try {
      const events: Array<{ event: string }> = [];
      await expect(repo.queue({ onEvent: (e) => events.push(e) })).rejects.toThrow(
        /^a-kept: .*\(the queue stopped; the instruction stays in the inbox\)$/,
      );
      expect(events.at(-1)).toMatchObject({ event: 'queue_done', not_started: ['a-kept', 'b-kept'] });
    } finally {
      await release();
    }
    expect(repo.ls('inbox').filter((f) => f.endsWith('.md'))).toEqual(['a-kept.md', 'b-kept.md']);
    expect(repo.ls('inbox/failed')).toEqual([]);
    expect(repo.ls('reports')).toEqual([]);
  });
});
