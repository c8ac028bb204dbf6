// What the person wrote into the inbox is never lost by the queue: an instruction edited while its run went on keeps
// its new text in the inbox (the run never saw it, so it is not filed as done), and a later instruction of the same
// name does not overwrite the report of the earlier one: the earlier report is kept beside it.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseFrontmatter } from '../../../src/persistence/frontmatter.js';
import { queueRepo, type QueueRepo } from './queue-helpers.js';

let repo: QueueRepo | undefined;
afterEach(() => repo?.cleanup());

describe('agent-collab queue, nothing the person wrote is lost', () => {
  it('leaves an instruction edited while its run went on in the inbox, and runs its new text next time', async () => {
    repo = queueRepo();
    repo.instruction('edited', '', 'add a.txt');
    const file = path.join(repo.inbox, 'edited.md');
    const first = await repo.queue({
      onEvent: (e) => {
        if (e.event === 'instruction_started') writeFileSync(file, '---\n---\n\nadd b.txt instead\n');
      },
    });
    expect(first.exitCode).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('add b.txt instead');
    expect(repo.ls('inbox/done')).toEqual([]);
    expect((await repo.report('edited')).data).toMatchObject({ status: 'SUCCESS', moved_to: null });
    expect((await repo.report('edited')).data.reason).toMatch(/edited while its run went on/);

    const second = await repo.queue();
    expect(second.exitCode).toBe(0);
    const prompts = repo.agents
      .at(-1)!
      .planner.turns.map((t) => t.turn.prompt)
      .join('\n');
    expect(prompts).toContain('add b.txt instead');
    expect(readFileSync(path.join(repo.inbox, 'done', 'edited.md'), 'utf8')).toContain('add b.txt instead');
  }, 60_000);

  it('keeps the report of an earlier instruction of the same name when a new one runs', async () => {
    repo = queueRepo();
    repo.instruction('same', '', 'add one.txt');
    expect((await repo.queue()).exitCode).toBe(0);
    const firstReport = await repo.report('same');
    repo.instruction('same', '', 'add two.txt');
    expect((await repo.queue()).exitCode).toBe(0);

    expect(repo.ls('inbox/done')).toEqual(['same-2.md', 'same.md']);
    const reportsDir = path.join(repo.dir, '.agent-collab', 'reports');
    const reports = await Promise.all(
      readdirSync(reportsDir).map(async (n) => {
        const f = path.join(reportsDir, n);
        return (await parseFrontmatter(readFileSync(f, 'utf8'), f)).data;
      }),
    );
    expect(reports.map((r) => r.run_id).sort()).toEqual(
      [firstReport.data.run_id, (await repo.report('same')).data.run_id].sort(),
    );
    expect((await repo.report('same')).data).toMatchObject({
      moved_to: path.join('.agent-collab', 'inbox', 'done', 'same-2.md'),
    });
    expect(reports.find((r) => r.run_id === firstReport.data.run_id)).toMatchObject({
      instruction: 'same',
      moved_to: path.join('.agent-collab', 'inbox', 'done', 'same.md'),
    });
  }, 60_000);
});
