// An instruction whose run waits for a person stays in the inbox; a person who then edits it (a clearer goal, a new
// constraint) means the edited text. The next queue starts a new run on it instead of going on with the run of the
// old text (which would file the edited instruction as done without ever running it).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { queueRepo, type QueueRepo } from './queue-helpers.js';

let repo: QueueRepo | undefined;
afterEach(() => repo?.cleanup());

describe('agent-collab queue, an instruction edited while its run waits', () => {
  it('runs the edited text in a new run instead of going on with the run of the old text', async () => {
    repo = queueRepo();
    repo.instruction('edited', '', 'add a.txt');
    const first = await repo.queue({ run: { auto: true, autoApprove: false } });
    expect(first.exitCode).toBe(3);
    const waiting = await repo.report('edited');
    expect(waiting.data).toMatchObject({ status: 'WAITING' });

    repo.instruction('edited', '', 'add b.txt instead');
    const second = await repo.queue({ run: { auto: true, autoApprove: true } });
    expect(second.exitCode).toBe(0);
    const started = second.events.flatMap((e) => (e.event === 'instruction_started' ? [e] : []));
    expect(started.map((e) => [e.instruction, e.resumed])).toEqual([['edited', false]]);
    const done = await repo.report('edited');
    expect(done.data).toMatchObject({ status: 'SUCCESS' });
    expect(done.data.run_id).not.toBe(waiting.data.run_id);
    // The new run's planner got the edited goal.
    const prompts = repo.agents
      .at(-1)!
      .planner.turns.map((t) => t.turn.prompt)
      .join('\n');
    expect(prompts).toContain('add b.txt instead');
    expect(readFileSync(path.join(repo.inbox, 'done', 'edited.md'), 'utf8')).toContain('add b.txt instead');
  });
});
