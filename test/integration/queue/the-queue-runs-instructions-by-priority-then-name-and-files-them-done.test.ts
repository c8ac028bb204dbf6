// The inbox queue, sequential: instructions run one after another in the repo, priority first, then name; each that
// succeeds moves to inbox/done/ with a report whose frontmatter parses; the project's context.md and the context
// file of a directory the instruction names reach the agents' prompts.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { queueRepo, type QueueRepo } from './queue-helpers.js';

let repo: QueueRepo | undefined;
afterEach(() => repo?.cleanup());

const writes = (file: string) => ({
  rules: [{ when: { kind: 'execute_step' as const, step: 1 }, do: { writeFiles: { [file]: 'x\n' } } }],
});

describe('agent-collab queue, one at a time', () => {
  it('runs higher priority first, then by name, moves each to done/ and writes a SUCCESS report', async () => {
    repo = queueRepo();
    repo.instruction('b-low', 'priority: 1', 'add b.txt');
    repo.instruction(
      'a-low',
      'priority: 1\ntype: feature\nconstraints: [keep it small]\nexpected_output: a.txt exists',
      'add a.txt',
    );
    repo.instruction('z-high', 'priority: 5', 'add z.txt');
    const result = await repo.queue(
      {},
      { 'b-low': writes('b.txt'), 'a-low': writes('a.txt'), 'z-high': writes('z.txt') },
    );

    expect(result.exitCode).toBe(0);
    const started = result.events.flatMap((e) => (e.event === 'instruction_started' ? [e.instruction] : []));
    expect(started).toEqual(['z-high', 'a-low', 'b-low']);
    // Each ran as its own run, one after the other: its step commits are in git in that order.
    const subjects = execFileSync('git', ['log', '--format=%s', '--reverse'], { cwd: repo.dir, encoding: 'utf8' });
    const firstSteps = subjects.split('\n').filter((s) => s.startsWith('[Step 1]'));
    expect(firstSteps).toHaveLength(3);
    expect(
      execFileSync('git', ['log', '--format=%s', '--name-only', '--reverse'], {
        cwd: repo.dir,
        encoding: 'utf8',
      }).match(/^[abz]\.txt$/gm),
    ).toEqual(['z.txt', 'a.txt', 'b.txt']);
    expect(repo.ls('inbox/done')).toEqual(['a-low.md', 'b-low.md', 'z-high.md']);
    expect(repo.ls('inbox').filter((f) => f.endsWith('.md'))).toEqual([]);
    const { data, content } = await repo.report('a-low');
    expect(data).toMatchObject({
      instruction: 'a-low',
      status: 'SUCCESS',
      type: 'feature',
      priority: 1,
      exit_code: 0,
      phase: 'DONE',
      moved_to: '.agent-collab/inbox/done/a-low.md',
    });
    expect(content).toContain('# Run report: SUCCESS');
    // The goal the run got carries the constraints and the expected output.
    const plannerPrompt = repo.agents.find((a) => a.instruction === 'a-low')!.planner.turns[0]!.turn.prompt;
    expect(plannerPrompt).toContain('add a.txt');
    expect(plannerPrompt).toContain('- keep it small');
    expect(plannerPrompt).toContain('- a.txt exists');
  });

  it("gives the agents the project's context.md and the context file of each directory the instruction names", async () => {
    repo = queueRepo();
    writeFileSync(path.join(repo.dir, '.agent-collab', 'context.md'), 'PROJECT-CONTEXT: we use tabs\n');
    mkdirSync(path.join(repo.dir, 'src', 'api'), { recursive: true });
    writeFileSync(path.join(repo.dir, 'src', 'api', 'context.md'), 'API-CONTEXT: every route is versioned\n');
    repo.instruction('with-context', 'context: src/api', 'add a route');
    repo.instruction('project-only', 'priority: -1', 'add a test');
    const result = await repo.queue();

    expect(result.exitCode).toBe(0);
    const byName = (n: string) => repo!.agents.find((a) => a.instruction === n)!;
    const prompts = (n: string) => [...byName(n).planner.turns, ...byName(n).reviewer.turns].map((t) => t.turn.prompt);
    // Every prompt of both roles, planning, review and steps, carries the layers.
    expect(prompts('with-context').length).toBeGreaterThan(3);
    for (const p of prompts('with-context')) {
      expect(p).toContain('PROJECT-CONTEXT: we use tabs');
      expect(p).toContain('API-CONTEXT: every route is versioned');
    }
    for (const p of prompts('project-only')) {
      expect(p).toContain('PROJECT-CONTEXT: we use tabs');
      expect(p).not.toContain('API-CONTEXT');
    }
  });
});
