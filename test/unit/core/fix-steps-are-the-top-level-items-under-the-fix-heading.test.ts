import { describe, expect, it } from 'vitest';
import { parseFixSteps } from '../../../src/core/code-review.js';
import { appendSteps, parseSteps } from '../../../src/core/plan-steps.js';

describe("fix steps in the planner's answer", () => {
  it('sub-bullets of a fix step are not steps of their own', () => {
    const answer = [
      '## Fix steps',
      '1. Rename `tmp` to `pending` in src/queue.ts',
      '   - in the class',
      '   - in its tests',
      '2. Handle an empty input in parse()',
      '',
      'I left out comment 3: it is a matter of taste.',
    ].join('\n');
    expect(parseFixSteps(answer)).toEqual([
      'Rename `tmp` to `pending` in src/queue.ts',
      'Handle an empty input in parse()',
    ]);
  });
  it('a fix-step list under another heading does not take the Responses list', () => {
    const answer = ['## Responses', '1. I disagree with comment 2', '', '## Fixes', '1. Fix the bug'].join('\n');
    expect(parseFixSteps(answer)).toEqual(['Fix the bug']);
  });
  it('a list under headings none of which names fixes or steps gives no fix step', () => {
    expect(parseFixSteps('## Responses\n1. I disagree with comment 2\n')).toEqual([]);
  });
  it('appended steps are numbered after the plan steps', () => {
    const plan = ['# Plan', '', '## Steps', '1. [x] A', '2. [x] B', '', '## Risks', '- none'].join('\n');
    const out = appendSteps(plan, ['C (from code review, round 1)']);
    expect(parseSteps(out).map((s) => s.n)).toEqual([1, 2, 3]);
  });
});
