// The ledger's parsers on answers as real CLIs give them: ids in emphasis, brackets or list items, numbered answers
// without ids, free-form lines, sections missing or named otherwise. What cannot be read is simply not there.
import { describe, expect, it } from 'vitest';
import { parseResponses, parseReview } from '../../../src/core/ledger-parse.js';

const noNumbers = (): string | null => null;

describe("the reviewer's answer", () => {
  it('reads `## Ledger` lines in any common spelling and the new `## Comments` as comments', () => {
    const text = [
      '[CHANGES_REQUIRED]',
      '',
      '## Ledger',
      '- **L1**: resolved',
      '- L2 — Withdrawn: the planner is right about the file',
      '* `L3` (open) step 3 still does not run the tests',
      '',
      '## Comments',
      '1. Step 4 writes to /tmp; use the repo dir.',
      '   It must stay inside the repo.',
      '2. None.',
    ].join('\n');
    const r = parseReview(text, ['L1', 'L2', 'L3']);
    expect([...r.marks.entries()]).toEqual([
      ['L1', { mark: 'resolved', note: '' }],
      ['L2', { mark: 'withdrawn', note: 'the planner is right about the file' }],
      ['L3', { mark: 'open', note: 'step 3 still does not run the tests' }],
    ]);
    expect(r.comments).toEqual([
      { number: 1, text: 'Step 4 writes to /tmp; use the repo dir. It must stay inside the repo.' },
    ]);
  });

  it('takes ids on lines of their own anywhere, in free form, and ignores ids that are not live', () => {
    const text = [
      '[CHANGES_REQUIRED]',
      '',
      'Thanks for the revision. About the earlier points:',
      'L4: I still think this is not resolved, the test is missing.',
      'L5 fixed now.',
      'L9: resolved',
      '',
      '## Review comments',
      '1. Rename the flag to --verbose.',
    ].join('\n');
    const r = parseReview(text, ['L4', 'L5']);
    expect(r.marks.get('L4')?.mark).toBe('open');
    expect(r.marks.get('L5')?.mark).toBe('resolved');
    expect(r.marks.has('L9')).toBe(false);
    expect(r.comments.map((c) => c.text)).toEqual(['Rename the flag to --verbose.']);
  });

  it('without a Comments heading, the numbered items are the comments (an old-format answer)', () => {
    const r = parseReview('[CHANGES_REQUIRED]\n\n1. Say which text goes into each file.\n2. Add a test.', []);
    expect(r.comments).toEqual([
      { number: 1, text: 'Say which text goes into each file.' },
      { number: 2, text: 'Add a test.' },
    ]);
  });

  it('"None." and an answer with no list give no comment; an id line in the list is a mark, not a comment', () => {
    expect(parseReview('[APPROVED]\n\n## Comments\n1. None.', []).comments).toEqual([]);
    expect(parseReview('[CHANGES_REQUIRED]\n\nPlease rethink the approach.', []).comments).toEqual([]);
    const r = parseReview('[CHANGES_REQUIRED]\n\n## Comments\n1. L2: still open, see above\n2. New point', ['L2']);
    expect(r.marks.get('L2')?.mark).toBe('open');
    expect(r.comments.map((c) => c.text)).toEqual(['New point']);
  });

  it('a line with an id but no telling word changes nothing', () => {
    const r = parseReview('[CHANGES_REQUIRED]\n\nL1: see the diff of src/a.ts', ['L1']);
    expect(r.marks.size).toBe(0);
  });
});

describe("the planner's answer", () => {
  const plan = (responses: string): string =>
    `# Task: x\n\n## Steps\n1. [ ] Edit src/a.ts\n2. [ ] Add a test\n\n## Responses to review\n${responses}`;

  it('reads `L3: addressed — …` / `L3: disputed — …` lines in the responses section', () => {
    const r = parseResponses(
      plan(
        '- L1: addressed — step 1 now edits src/store/queries.ts\n- **L2**: Disputed: the db layer is in src/db.ts\n',
      ),
      ['L1', 'L2'],
      noNumbers,
    );
    expect([...r.answers.entries()]).toEqual([
      ['L1', { mark: 'addressed', answer: 'step 1 now edits src/store/queries.ts' }],
      ['L2', { mark: 'disputed', answer: 'the db layer is in src/db.ts' }],
    ]);
  });

  it("falls back on the comments' numbers inside the responses section, not on the plan's steps", () => {
    const byNumber = (n: number): string | null => ({ 1: 'L7', 2: 'L8' })[n] ?? null;
    const r = parseResponses(
      plan('1. Changed step 1 to edit the right file.\n2. I did not change this: the tests already run in step 2.\n'),
      ['L7', 'L8'],
      byNumber,
    );
    expect(r.answers.get('L7')).toEqual({ mark: 'addressed', answer: 'Changed step 1 to edit the right file.' });
    expect(r.answers.get('L8')?.mark).toBe('disputed');
    // The steps "1." and "2." above the section were not read as answers: only two answers, from the section.
    expect(r.answers.size).toBe(2);
  });

  it("missing answers stay missing; ids in a report without a section are read (a fix attempt's report)", () => {
    const report = 'I handled the empty input.\nL3: addressed — parse() returns [] on ""\nSummary: handle empty input';
    const r = parseResponses(report, ['L3', 'L4'], noNumbers);
    expect(r.answers.get('L3')).toEqual({ mark: 'addressed', answer: 'parse() returns [] on ""' });
    expect(r.answers.has('L4')).toBe(false);
  });

  it('a numbered plan without a responses section answers nothing', () => {
    const r = parseResponses('# Task: x\n\n## Steps\n1. [ ] Do it\n', ['L1'], () => 'L1');
    expect(r.answers.size).toBe(0);
  });
});
