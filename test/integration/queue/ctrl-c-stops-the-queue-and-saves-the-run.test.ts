// Ctrl+C (the queue's signal) stops the run under way, saved as a run's Ctrl+C, and the queue with it: the
// instruction stays in the inbox as INTERRUPTED, no other starts, and the next queue goes on with the saved run.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { queueRepo, type QueueRepo } from './queue-helpers.js';

let repo: QueueRepo | undefined;
afterEach(() => repo?.cleanup());

describe('agent-collab queue and Ctrl+C', () => {
  it('stops the run under way and the queue, keeps the instruction, and the next queue resumes its run', async () => {
    repo = queueRepo();
    repo.instruction('a-stopped', 'priority: 1', 'add a.txt');
    repo.instruction('b-later', '', 'add b.txt');
    const stop = new AbortController();
    const hangs = { rules: [{ when: { kind: 'write_plan' as const }, times: 1, do: { hang: true } }] };
    const first = await repo.queue(
      {
        signal: stop.signal,
        // The person presses Ctrl+C while the planner works.
        onEvent: (e) => {
          if (e.event === 'agent' && e.type === 'session') stop.abort();
        },
      },
      { 'a-stopped': hangs },
    );

    expect(first.exitCode).toBe(130);
    expect(first.finished.map((f) => [f.instruction, f.status, f.moved_to])).toEqual([
      ['a-stopped', 'INTERRUPTED', null],
    ]);
    expect(first.notStarted).toEqual(['b-later']);
    expect(existsSync(path.join(repo.inbox, 'a-stopped.md'))).toBe(true);
    // Saved like a run's Ctrl+C: the state is on disk, not over, and the report names that run.
    const state = JSON.parse(readFileSync(path.join(repo.dir, '.agent-collab', 'state.json'), 'utf8')) as {
      runId: string;
      phase: string;
    };
    expect(['DONE', 'CANCELLED']).not.toContain(state.phase);
    expect((await repo.report('a-stopped')).data).toMatchObject({ status: 'INTERRUPTED', run_id: state.runId });

    const second = await repo.queue();
    expect(second.exitCode).toBe(0);
    expect(second.finished.map((f) => [f.instruction, f.status])).toEqual([
      ['a-stopped', 'SUCCESS'],
      ['b-later', 'SUCCESS'],
    ]);
    expect((await repo.report('a-stopped')).data).toMatchObject({ run_id: state.runId });
  });
});
