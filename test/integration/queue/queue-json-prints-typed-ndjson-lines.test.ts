// `agent-collab queue --json`: one NDJSON line per event; the queue's own events (started/finished per instruction,
// with its status and report path) and every event of the runs, tagged with the instruction's name.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import { runQueueMode } from '../../../src/modes/queue.js';
import type { QueueEvent } from '../../../src/queue/queue-events.js';
import { sink } from '../../helpers/repo.js';
import { queueRepo, type QueueRepo } from './queue-helpers.js';

let repo: QueueRepo | undefined;
afterEach(() => repo?.cleanup());

/** The `event` names of modes/run-events.ts `RunEvent`. */
const RUN_EVENTS = [
  'phase',
  'agent',
  'verdict',
  'round',
  'command',
  'code_review',
  'budget',
  'tests',
  'notice',
  'rejected',
  'error',
  'report',
  'needs_human',
  'waiting',
  'done',
];

describe('agent-collab queue --json', () => {
  it('prints every queue and run event as a parseable line, run events tagged with their instruction', async () => {
    repo = queueRepo();
    repo.instruction('one', '', 'add one.txt');
    repo.instruction('broken', 'priority: high', 'x');
    const out = sink();
    const code = await runQueueMode({
      cwd: repo.dir,
      parallel: 1,
      json: true,
      stdout: out,
      homeDir: repo.home,
      run: { auto: true, autoApprove: true },
      agentsFor: () => ({
        planner: new FakeAgent('planner', { rules: [] }),
        reviewer: new FakeAgent('reviewer', { rules: [] }),
      }),
    });

    expect(code).toBe(4);
    const lines = out.text().trim().split('\n');
    const events = lines.map((l) => JSON.parse(l) as QueueEvent & { ts: string });
    expect(events.every((e) => typeof e.ts === 'string' && !Number.isNaN(Date.parse(e.ts)))).toBe(true);
    expect(events[0]).toMatchObject({ event: 'queue_started', instructions: ['one'], parallel: 1 });
    expect(events.at(-1)).toMatchObject({
      event: 'queue_done',
      counts: { SUCCESS: 1, FAILED: 1 },
      not_started: [],
      exit_code: 4,
    });
    const own = ['queue_started', 'instruction_started', 'instruction_finished', 'queue_done'];
    for (const e of events) {
      if (own.includes(e.event)) continue;
      expect(RUN_EVENTS).toContain(e.event);
      expect(e).toHaveProperty('instruction', 'one');
    }
    const finished = events.filter((e) => e.event === 'instruction_finished');
    expect(finished).toEqual([
      expect.objectContaining({
        instruction: 'broken',
        status: 'FAILED',
        reason: expect.stringContaining('"priority"'),
        moved_to: expect.stringMatching(/inbox\/failed\/broken\.md$/),
      }),
      expect.objectContaining({
        instruction: 'one',
        status: 'SUCCESS',
        report: expect.stringMatching(/\.agent-collab\/reports\/one\.md$/),
        exit_code: 0,
      }),
    ]);
    // The run's own end is among its tagged events, before the queue says the instruction finished.
    const runDone = events.findIndex((e) => e.event === 'done' && 'instruction' in e);
    expect(runDone).toBeGreaterThan(events.findIndex((e) => e.event === 'instruction_started'));
    expect(runDone).toBeLessThan(
      events.findIndex((e) => e.event === 'instruction_finished' && e.instruction === 'one'),
    );
  });

  it('refuses a --parallel that is not a whole number from 1 to 16 in one line', async () => {
    repo = queueRepo();
    await expect(runQueueMode({ cwd: repo.dir, parallel: 0, json: true, stdout: sink(), run: {} })).rejects.toThrow(
      /^--parallel must be a whole number from 1 to 16 \(got 0\)$/,
    );
  });
});
