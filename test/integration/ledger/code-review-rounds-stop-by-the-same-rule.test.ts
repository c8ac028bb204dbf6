// The stagnation rule on the final code review's rounds: the planner answers the code reviewer's comments per ledger
// id in its fix-step answer; a second code review that settles nothing stops before `[review] max_code_rounds`
// (exit 3, the disputes listed), and siding with the planner accepts the code and ends the run.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import { parseDecision } from '../../../src/modes/decisions.js';
import { gitLog, readWork } from '../../helpers/repo.js';
import { codeVerdicts, repoWithPassingTests, runAuto } from '../code-review/helpers.js';

const PLAN = '# Task: Greet\n\n## Steps\n1. [ ] Add greeting.txt\n';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function agents(): { planner: FakeAgent; reviewer: FakeAgent } {
  return {
    planner: new FakeAgent('planner', {
      rules: [
        { when: { kind: 'write_plan' }, do: { text: PLAN } },
        { when: { step: 1 }, do: { writeFiles: { 'greeting.txt': 'hi\n' }, text: 'Summary: add greeting.txt' } },
        {
          when: { kind: 'code_fix' },
          do: {
            text: '## Fix steps\n1. Add a README line about the greeting\n\n## Responses to review\nL1: disputed — "hi" is the house style\nL2: addressed — step 2',
          },
        },
        { when: { step: 2 }, do: { writeFiles: { 'NOTES.md': 'greeting\n' }, text: 'Summary: note the greeting' } },
      ],
    }),
    reviewer: new FakeAgent('reviewer', {
      rules: [
        { when: { kind: 'review' }, do: { verdict: 'APPROVED', text: '## Comments\n1. None.' } },
        {
          when: { kind: 'code_review' },
          times: 1,
          do: { verdict: 'CHANGES_REQUIRED', text: '## Comments\n1. Say hello, not hi.\n2. Document the greeting.' },
        },
        { when: { kind: 'code_review' }, do: { verdict: 'CHANGES_REQUIRED', text: '## Ledger\nL1: open — say hello' } },
      ],
    }),
  };
}

describe('code review rounds', { timeout: 120_000 }, () => {
  it('a second code review that settles nothing → exit 3 with the code brief before the cap; siding with the planner ends the run', async () => {
    const repo = repoWithPassingTests('');
    cleanup = repo.cleanup;
    const first = await runAuto(repo, agents());

    expect(first.code).toBe(3);
    expect(codeVerdicts(first.events)).toEqual(['-:1 CHANGES_REQUIRED', '-:2 CHANGES_REQUIRED']);
    expect(first.events.find((e) => e.event === 'needs_human')).toMatchObject({
      kind: 'disagreement',
      phase: 'CODE_REVIEW',
      review: 'code',
      step: null,
      round: 2,
      reason: 'review round 2 settled no ledger entry',
      disputes: [
        { id: 'L1', reviewer: 'Say hello, not hi.', planner: '"hi" is the house style', disputed: true },
        { id: 'L2', reviewer: 'Document the greeting.', planner: 'step 2', disputed: false },
      ],
    });
    expect(readWork(repo.dir, 'ledger.md')).toContain('- L1 [open] code review, round 1: Say hello, not hi.');

    const ruled = await runAuto(repo, agents(), { resume: 'resume', decision: parseDecision('planner') });
    expect(ruled.code).toBe(0);
    expect(ruled.events.at(-1)).toMatchObject({ event: 'done', phase: 'DONE' });
    expect(readWork(repo.dir, 'ledger.md')).toContain('- L1 [withdrawn] code review, round 1');
    expect(gitLog(repo.dir).slice(0, 2)).toEqual(['[Step 2] note the greeting', '[Step 1] add greeting.txt']);
  });
});
