// Fake-agent scripts for the bench: no delays, so every millisecond measured is agent-collab's own.
import type { FakeScript } from '../src/adapters/fake/script.js';

export const BENCH_GOAL = 'Add a greeting module with a unit test (bench)';

export function benchPlan(steps: number, revision: number): string {
  const lines = [
    '# Task: Add a greeting module',
    '',
    '## Goal',
    `Add \`src/greeting.mjs\` exporting \`greet(name)\`, with tests. Revision ${revision}.`,
    '',
    '## Steps',
  ];
  for (let n = 1; n <= steps; n++) lines.push(`${n}. [ ] Write bench-step-${n}.txt`);
  lines.push('', '## Risks', '- None: the bench only adds small files.', '');
  return lines.join('\n');
}

/** Planner: writes the plan, revises it after each review, and writes one small file per step. */
export function plannerScript(steps: number): FakeScript {
  const rules: FakeScript['rules'] = [
    { when: { kind: 'write_plan' }, do: { text: benchPlan(steps, 0) } },
    { when: { kind: 'respond' }, do: { text: `${benchPlan(steps, 1)}\n## Responses to review\n1. Addressed the comments.\n` } },
  ];
  for (let n = 1; n <= steps; n++) {
    rules.push({
      when: { kind: 'execute_step', step: n },
      do: { writeFiles: { [`bench-step-${n}.txt`]: `step ${n}\n` }, text: `Wrote bench-step-${n}.txt.\nSummary: add bench-step-${n}.txt` },
    });
  }
  return { rules };
}

/** Reviewer: CHANGES_REQUIRED for review iterations 1..approveAt-1, APPROVED at `approveAt`. */
export function reviewerScript(approveAt: number): FakeScript {
  return {
    rules: [
      { when: { kind: 'review', iteration: approveAt }, do: { verdict: 'APPROVED', text: '## Comments\n1. Looks good now.' } },
      { when: { kind: 'review' }, do: { verdict: 'CHANGES_REQUIRED', text: '## Comments\n1. Step 2 should say which test command runs.' } },
    ],
  };
}
