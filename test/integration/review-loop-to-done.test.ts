import { afterEach, describe, expect, it } from 'vitest';
import matter from 'gray-matter';
import { FakeAgent } from '../../src/adapters/fake/fake-agent.js';
import type { FakeScript } from '../../src/adapters/fake/script.js';
import { runHeadless } from '../../src/modes/headless.js';
import { gitLog, readWork, sink, tempRepo } from '../helpers/repo.js';

const PLAN = '# Task: Greeting\n\n## Goal\nA greeting.\n\n## Steps\n1. [ ] Add greet.txt\n2. [ ] Add docs.txt\n';

const planner: FakeScript = {
  rules: [
    { when: { kind: 'write_plan' }, do: { text: PLAN } },
    { when: { kind: 'respond' }, do: { text: PLAN.replace('A greeting.', 'A greeting, revised.') } },
    {
      when: { kind: 'execute_step', step: 1 },
      do: { writeFiles: { 'greet.txt': 'hello\n' }, text: 'Done.\nSummary: add greet.txt' },
    },
    {
      when: { kind: 'execute_step', step: 2 },
      do: { writeFiles: { 'docs.txt': 'docs\n' }, text: 'Summary: add docs.txt' },
    },
  ],
};
const reviewer: FakeScript = {
  rules: [
    { when: { iteration: 1 }, do: { verdict: 'CHANGES_REQUIRED', text: '## Comments\n1. Say more.' } },
    // Round 2 settles round 1's point (L1) and raises a new one: progress, so no stagnation stop before round 3.
    {
      when: { iteration: 2 },
      do: { verdict: 'CHANGES_REQUIRED', text: '## Ledger\nL1: resolved\n\n## Comments\n1. Still vague.' },
    },
    { when: { iteration: 3 }, do: { verdict: 'APPROVED', text: '## Comments\n1. Good.' } },
  ],
};

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('review loop with fake agents and real git', () => {
  it('CHANGES_REQUIRED twice, then APPROVED → execution → DONE with [Step N] commits', async () => {
    // Without a code review (its own tests are in code-review/): DONE right after the last step.
    const repo = tempRepo('[review]\ncode = "off"\n');
    cleanup = repo.cleanup;
    const out = sink();
    const p = new FakeAgent('planner', planner);
    const r = new FakeAgent('reviewer', reviewer);
    const code = await runHeadless({
      cwd: repo.dir,
      homeDir: repo.home,
      goal: 'add a greeting',
      auto: true,
      autoApprove: true,
      json: true,
      resume: 'ask',
      agents: { planner: p, reviewer: r },
      stdout: out,
      stderr: sink(),
    });
    expect(code).toBe(0);

    const events = out.lines();
    const verdicts = events.filter((e) => e.event === 'verdict').map((e) => e.verdict);
    expect(verdicts).toEqual(['CHANGES_REQUIRED', 'CHANGES_REQUIRED', 'APPROVED']);
    const phases = events.filter((e) => e.event === 'phase').map((e) => e.to);
    expect(phases).toEqual([
      'REFINE_GOAL',
      'WRITE_PLAN',
      'REVIEW',
      'RESPOND',
      'REVIEW',
      'RESPOND',
      'REVIEW',
      'APPROVED',
      'EXECUTE',
      'DONE',
    ]);
    expect(events.at(-1)).toMatchObject({ event: 'done', phase: 'DONE', exit_code: 0 });

    // tokens per call (agent usage events), per round and per run
    const rounds = events.filter((e) => e.event === 'round');
    // No test command in this repo: after step 1 the planner is asked for one (the fake answers "none").
    expect(rounds.map((e) => e.action)).toEqual([
      'write_plan',
      'review',
      'respond',
      'review',
      'respond',
      'review',
      'execute_step',
      'ask_test_command',
      'execute_step',
    ]);
    const perCall = events
      .filter((e) => e.event === 'agent' && e.type === 'usage')
      .reduce((n, e) => n + Number(e.inputTokens), 0);
    const perRound = rounds.reduce((n, e) => n + (e.usage as { inputTokens: number }).inputTokens, 0);
    expect(perRound).toBe(perCall);
    expect(events.at(-1)).toMatchObject({ usage: { inputTokens: perCall, calls: 9 } });

    expect(gitLog(repo.dir)).toEqual(['[Step 2] add docs.txt', '[Step 1] add greet.txt', 'initial']);

    const plan = matter(readWork(repo.dir, 'plan.md'));
    expect(plan.data).toMatchObject({ version: 1, status: 'approved', iteration: 2, author: 'planner' });
    expect(plan.content).toMatch(/1\. \[x\] Add greet\.txt \(commit [0-9a-f]{7}\)/);
    expect(plan.content).toMatch(/2\. \[x\] Add docs\.txt \(commit [0-9a-f]{7}\)/);
    expect(plan.content).toContain('A greeting, revised.');

    const comments = matter(readWork(repo.dir, 'comments.md'));
    expect(comments.data).toMatchObject({ status: 'APPROVED', iteration: 3, author: 'reviewer' });
    expect(comments.content.trim().split('\n')[0]).toBe('[APPROVED]');

    const state = JSON.parse(readWork(repo.dir, 'state.json')) as Record<string, unknown>;
    expect(state).toMatchObject({
      schemaVersion: 1,
      phase: 'DONE',
      iteration: 3,
      mode: 'auto',
      goal: 'add a greeting',
      currentStep: null,
    });
    expect((state.sessions as Record<string, string>).planner).toMatch(/./);

    const log = readWork(repo.dir, 'log.md');
    expect(log).toContain('Reviewer requested changes (iteration 1/5)');
    expect(log).toContain('Reviewer approved the plan (iteration 3)');
    expect(log).toContain('Step 2 done');
    expect(readWork(repo.dir, 'debug.log')).toContain('[reviewer]');

    // planning and review ran read-only; only steps could write
    expect(r.turns.every((t) => t.turn.access === 'read-only')).toBe(true);
    expect(p.turns.filter((t) => t.turn.access === 'workspace-write').map((t) => t.turn.meta.step)).toEqual([1, 2]);
    // the planner kept one session throughout
    expect(new Set(p.turns.slice(1).map((t) => t.method))).toEqual(new Set(['resume']));
  });

  it('a step that changes nothing makes no commit and says so in log.md', async () => {
    const repo = tempRepo();
    cleanup = repo.cleanup;
    const p = new FakeAgent('planner', {
      rules: [
        { when: { kind: 'write_plan' }, do: { text: '# Task: t\n\n## Steps\n1. [ ] Look around\n' } },
        { when: { kind: 'execute_step' }, do: { writeFiles: {}, text: 'Nothing to change.\nSummary: nothing' } },
      ],
    });
    const code = await runHeadless({
      cwd: repo.dir,
      homeDir: repo.home,
      goal: 'look',
      auto: true,
      autoApprove: true,
      json: true,
      resume: 'ask',
      agents: { planner: p, reviewer: new FakeAgent('r', { rules: [] }) },
      stdout: sink(),
      stderr: sink(),
    });
    expect(code).toBe(0);
    expect(gitLog(repo.dir)).toEqual(['initial']);
    expect(readWork(repo.dir, 'log.md')).toContain('no changes: nothing committed');
    expect(readWork(repo.dir, 'plan.md')).toMatch(/1\. \[x\] Look around\n/);
  });
});
