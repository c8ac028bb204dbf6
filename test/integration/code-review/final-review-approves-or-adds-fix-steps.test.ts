// `[review] code = "final"` (the default) with fake agents, real files and git: after the last step the reviewer
// reads the run's diff and the test results; changes required become fix steps appended to plan.md, executed and
// committed as `[Step N]`, and the diff is reviewed again; `off` ends the run right after the last step.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import { gitLog, readWork } from '../../helpers/repo.js';
import { codeVerdicts, repoWithPassingTests, runAuto, show } from './helpers.js';

const PLAN = '# Task: Greet\n\n## Steps\n1. [ ] Add greeting.txt\n';
const approve = { do: { verdict: 'APPROVED' as const, text: '## Comments\n1. Fine.' } };

function planner(extra: ConstructorParameters<typeof FakeAgent>[1]['rules'] = []): FakeAgent {
  return new FakeAgent('planner', {
    rules: [
      { when: { kind: 'write_plan' }, do: { text: PLAN } },
      { when: { step: 1 }, do: { writeFiles: { 'greeting.txt': 'hello\n' }, text: 'Summary: add greeting.txt' } },
      ...extra,
    ],
  });
}

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('final code review', { timeout: 120_000 }, () => {
  it('reads the run’s diff and test results read-only after the last step; its approval ends the run', async () => {
    const repo = repoWithPassingTests('');
    cleanup = repo.cleanup;
    const reviewer = new FakeAgent('reviewer', { rules: [approve] });
    const { code, events } = await runAuto(repo, { planner: planner(), reviewer });

    expect(code).toBe(0);
    expect(events.at(-1)).toMatchObject({ event: 'done', phase: 'DONE' });
    expect(gitLog(repo.dir)).toEqual(['[Step 1] add greeting.txt', 'tests', 'initial']);
    const phases = events.filter((e) => e.event === 'phase').map((e) => e.to);
    expect(phases.slice(-2)).toEqual(['CODE_REVIEW', 'DONE']);
    expect(codeVerdicts(events)).toEqual(['-:1 APPROVED']);

    const review = reviewer.turns.find((t) => t.turn.meta.kind === 'code_review');
    expect(review?.turn.access).toBe('read-only');
    expect(review?.turn.prompt).toContain('+hello');
    expect(review?.turn.prompt).toContain('greeting.txt');
    expect(review?.turn.prompt).toContain('Step 1: `npm test` passed');
    expect(review?.turn.prompt).toContain('code review round 1 of at most 3');
    expect(readWork(repo.dir, 'log.md')).toContain("Code review of the run's changes, round 1: approved");
  });

  it('changes required → a fix step appended to plan.md, executed, committed as [Step 2], approved on the second review', async () => {
    const repo = repoWithPassingTests('');
    cleanup = repo.cleanup;
    const p = planner([
      { when: { kind: 'code_fix' }, do: { text: '## Fix steps\n1. End greeting.txt with a period\n' } },
      {
        when: { step: 2 },
        do: { writeFiles: { 'greeting.txt': 'hello.\n' }, text: 'Summary: end the greeting with a period' },
      },
    ]);
    const reviewer = new FakeAgent('reviewer', {
      rules: [
        {
          when: { kind: 'code_review' },
          times: 1,
          do: { verdict: 'CHANGES_REQUIRED', text: '## Comments\n1. greeting.txt must end with a period.' },
        },
        approve,
      ],
    });
    const { code, events } = await runAuto(repo, { planner: p, reviewer });

    expect(code).toBe(0);
    expect(gitLog(repo.dir)).toEqual([
      '[Step 2] end the greeting with a period',
      '[Step 1] add greeting.txt',
      'tests',
      'initial',
    ]);
    expect(show(repo.dir, 'HEAD:greeting.txt')).toBe('hello.\n');
    expect(codeVerdicts(events)).toEqual(['-:1 CHANGES_REQUIRED', '-:2 APPROVED']);

    // The fix step is in plan.md, marked as from the code review, ticked with its commit.
    const plan = readFileSync(path.join(repo.dir, '.agent-collab', 'plan.md'), 'utf8');
    expect(plan).toMatch(/1\. \[x\] Add greeting\.txt \(commit [0-9a-f]{7}\)/);
    expect(plan).toContain('2. [x] End greeting.txt with a period (from code review, round 1) (commit');

    // The planner was given the comments, read-only, then carried out the fix step with them.
    const fix = p.turns.find((t) => t.turn.meta.kind === 'code_fix');
    expect(fix?.turn.access).toBe('read-only');
    expect(fix?.turn.prompt).toContain('greeting.txt must end with a period.');
    const step2 = p.turns.find((t) => t.turn.meta.kind === 'execute_step' && t.turn.meta.step === 2);
    expect(step2?.turn.prompt).toContain('greeting.txt must end with a period.');

    // The second review read the whole run's diff, the fix included, and its own previous comments.
    const second = reviewer.turns.filter((t) => t.turn.meta.kind === 'code_review')[1];
    expect(second?.turn.prompt).toContain('+hello.');
    expect(second?.turn.prompt).toContain('code review round 2 of at most 3');
    expect(second?.turn.prompt).toContain('<previous_comments>\n[CHANGES_REQUIRED]');
  });

  it('`[review] code = "off"` ends the run after the last step, with no code review', async () => {
    const repo = repoWithPassingTests('[review]\ncode = "off"\n');
    cleanup = repo.cleanup;
    const reviewer = new FakeAgent('reviewer', { rules: [approve] });
    const { code, events } = await runAuto(repo, { planner: planner(), reviewer });

    expect(code).toBe(0);
    expect(gitLog(repo.dir)[0]).toBe('[Step 1] add greeting.txt');
    expect(reviewer.turns.map((t) => t.turn.meta.kind)).toEqual(['review']);
    expect(events.filter((e) => e.event === 'phase').map((e) => e.to)).not.toContain('CODE_REVIEW');
    expect(codeVerdicts(events)).toEqual([]);
  });
});
