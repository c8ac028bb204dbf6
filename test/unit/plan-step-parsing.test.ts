import { describe, expect, it } from 'vitest';
import { markStepDone, markStepSkipped, parseSteps } from '../../src/core/plan-steps.js';

const PLAN = `---
version: 1
status: approved
iteration: 2
---

# Task: Greeting

## Goal
Say hello.
1. [ ] not a step (outside Steps)

## Steps
1. [ ] Add the module
   - detail line, ignored
   2. [ ] indented sub-item, ignored
2. [x] Add tests (commit abc1234)
3. [X] Write docs
4. [ ] Ship it (commit 0123456789abcdef)

## Risks
1. [ ] not a step either
`;

describe('parseSteps', () => {
  it('reads the items under ## Steps only', () => {
    expect(parseSteps(PLAN)).toEqual([
      { n: 1, title: 'Add the module', done: false, commit: null },
      { n: 2, title: 'Add tests', done: true, commit: 'abc1234' },
      { n: 3, title: 'Write docs', done: true, commit: null },
      { n: 4, title: 'Ship it', done: false, commit: '0123456789abcdef' },
    ]);
  });

  it('accepts bullets with boxes, numbered by position', () => {
    const plan = '## Steps\n- [ ] one\n* [x] two\n+ [ ] three\n- a note without a box\n';
    expect(parseSteps(plan).map((s) => [s.n, s.title, s.done])).toEqual([
      [1, 'one', false],
      [2, 'two', true],
      [3, 'three', false],
    ]);
  });

  it('numbers by position even when the list numbers are off', () => {
    const plan = '## Steps\n1. [ ] a\n1. [ ] b\n7. [ ] c\n';
    expect(parseSteps(plan).map((s) => s.n)).toEqual([1, 2, 3]);
  });

  it('accepts numbered items without a box as not done', () => {
    expect(parseSteps('## Steps\n1. Do a\n2) Do b\n')).toEqual([
      { n: 1, title: 'Do a', done: false, commit: null },
      { n: 2, title: 'Do b', done: false, commit: null },
    ]);
  });

  it('finds the heading case-insensitively, with trailing text, and stops at the next ## or # heading', () => {
    expect(
      parseSteps('## STEPS (3)\n1. [ ] a\n### Phase 2\n2. [ ] b\n# Appendix\n3. [ ] c').map((s) => s.title),
    ).toEqual(['a', 'b']);
    expect(parseSteps('## 步骤\n1. [ ] 步骤一\n')).toHaveLength(1);
  });

  it('ignores items in code fences and handles CRLF', () => {
    expect(
      parseSteps('## Steps\r\n1. [ ] a\r\n```\r\n2. [ ] fenced\r\n```\r\n2. [x] b\r\n').map((s) => [s.title, s.done]),
    ).toEqual([
      ['a', false],
      ['b', true],
    ]);
  });

  it('returns no steps without a Steps section', () => {
    expect(parseSteps('# Task: x\n\n1. [ ] a\n')).toEqual([]);
    expect(parseSteps('')).toEqual([]);
  });

  it('does not mistake a ## Steps line inside the frontmatter for the heading', () => {
    expect(parseSteps('---\nnote: |\n## Steps\n1. [ ] fm\n---\n## Steps\n1. [ ] real\n').map((s) => s.title)).toEqual([
      'real',
    ]);
  });
});

describe('markStepDone', () => {
  it('ticks only that item and appends the short commit', () => {
    const out = markStepDone(PLAN, 1, 'deadbeefcafe1234');
    const changed = out.split('\n').filter((l, i) => l !== PLAN.split('\n')[i]);
    expect(changed).toEqual(['1. [x] Add the module (commit deadbee)']);
    expect(out.startsWith('---\nversion: 1\nstatus: approved\niteration: 2\n---\n')).toBe(true);
    expect(parseSteps(out)[0]).toEqual({ n: 1, title: 'Add the module', done: true, commit: 'deadbee' });
  });

  it('is idempotent', () => {
    const once = markStepDone(PLAN, 1, 'deadbeefcafe');
    expect(markStepDone(once, 1, 'deadbeefcafe')).toBe(once);
    const noCommit = markStepDone(PLAN, 1, null);
    expect(markStepDone(noCommit, 1, null)).toBe(noCommit);
  });

  it('without a commit only ticks the box, keeping an existing commit', () => {
    expect(markStepDone(PLAN, 1, null)).toContain('\n1. [x] Add the module\n');
    expect(markStepDone(PLAN, 2, null)).toBe(PLAN);
  });

  it('replaces an older commit suffix', () => {
    expect(markStepDone(PLAN, 2, '9999999aaaa')).toContain('\n2. [x] Add tests (commit 9999999)\n');
  });

  it('works on bullets, on items without a box and keeps CRLF', () => {
    expect(markStepDone('## Steps\n- [ ] one\n- [ ] two\n', 2, null)).toBe('## Steps\n- [ ] one\n- [x] two\n');
    expect(markStepDone('## Steps\n1. Do a\n', 1, 'abcdef12')).toBe('## Steps\n1. [x] Do a (commit abcdef1)\n');
    expect(markStepDone('## Steps\r\n1. [ ] a\r\n', 1, null)).toBe('## Steps\r\n1. [x] a\r\n');
  });

  it('returns the text unchanged when the step does not exist', () => {
    expect(markStepDone(PLAN, 9, 'abc1234')).toBe(PLAN);
    expect(markStepDone(PLAN, 0, 'abc1234')).toBe(PLAN);
  });
});

describe('skipped steps', () => {
  const plan = '## Steps\n1. [ ] one\n2. [ ] two\n';
  it('a skipped step is marked [-], read back as skipped and not done; only its line changes', () => {
    const marked = markStepSkipped(plan, 1);
    expect(marked).toBe('## Steps\n1. [-] one\n2. [ ] two\n');
    expect(parseSteps(marked)).toEqual([
      { n: 1, title: 'one', done: false, commit: null, skipped: true },
      { n: 2, title: 'two', done: false, commit: null },
    ]);
  });
  it('a skipped step done later becomes [x]', () => {
    expect(markStepDone(markStepSkipped(plan, 2), 2, 'abcdef123')).toBe(
      '## Steps\n1. [ ] one\n2. [x] two (commit abcdef1)\n',
    );
  });
});
