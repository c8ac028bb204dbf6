// The ledger's parsers on answers as real CLIs give them: ids in emphasis, brackets or list items, numbered answers
// without ids, free-form lines, sections missing or named otherwise. What cannot be read is simply not there.
import { describe, expect, it } from 'vitest';
import { afterReview } from '../../../src/core/ledger.js';
import { parseResponses, parseReview } from '../../../src/core/ledger-parse.js';
import { stagnation } from '../../../src/core/stagnation.js';

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

describe('answers a hostile review found misread', () => {
  const marks = (text: string, ids = ['L1', 'L2']) =>
    Object.fromEntries([...parseReview(text, ids).marks.entries()].map(([id, m]) => [id, m.mark]));

  it('reads the reviewer’s word from a Markdown table, ids in emphasis or with an emoji status', () => {
    const table = [
      '[CHANGES_REQUIRED]',
      '',
      '| Entry | Status | Note |',
      '| --- | --- | --- |',
      '| L1 | resolved | ok |',
    ];
    expect(marks([...table, '| **L2** | ✅ resolved | fine |'].join('\n'))).toEqual({ L1: 'resolved', L2: 'resolved' });
  });

  it('a qualified or denied “resolved” keeps the entry open', () => {
    for (const said of [
      'L1: Not fully resolved — step 3 still lacks tests',
      'L1: only partly resolved',
      'L1: not really fixed',
      'L1: I do not consider this resolved',
      'L1 — the planner says it is fixed, but it is not',
    ])
      expect(marks(`[CHANGES_REQUIRED]\n\n## Ledger\n${said}`), said).toEqual({ L1: 'open' });
    expect(marks('[CHANGES_REQUIRED]\n\n## Ledger\nL1: resolved, the test is there')).toEqual({ L1: 'resolved' });
  });

  it('a long comment is cut between words: a token at the cut is dropped whole, never kept in part', () => {
    const token = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
    const text = `[CHANGES_REQUIRED]\n\n## Comments\n1. ${'word '.repeat(195)}${token} is hard-coded`;
    const [comment] = parseReview(text, []).comments;
    expect(comment?.text.endsWith('…')).toBe(true);
    expect(comment?.text).not.toContain('ghp_');
  });

  it('a planner who keeps its plan in so many words disputes the point', () => {
    const r = parseResponses(
      '## Responses to review\n- L1: Good point, but keeping it: the API is public',
      ['L1'],
      noNumbers,
    );
    expect(r.answers.get('L1')?.mark).toBe('disputed');
  });
});

describe('the stagnation rule stands on what the reviewer said', () => {
  const scope = { review: 'plan' as const, step: null };
  const round1 = afterReview(undefined, scope, 1, '[CHANGES_REQUIRED]\n\n## Comments\n1. Add tests.\n', false).ledger;

  it('a round whose ledger lines cannot be read is left to the cap, not called stuck', () => {
    const prose =
      '[CHANGES_REQUIRED]\n\nThe earlier point about tests looks handled now.\n\n## Comments\n1. Name the file.\n';
    const outcome = afterReview(round1, scope, 2, prose, false);
    expect(outcome.settled).toBe(0);
    expect(stagnation(round1, outcome, scope, 2)).toBeNull();
  });

  it('a round where the reviewer keeps the entry open in so many words and settles nothing is stuck', () => {
    const kept = '[CHANGES_REQUIRED]\n\n## Ledger\nL1: still open, no test was added\n';
    expect(stagnation(round1, afterReview(round1, scope, 2, kept, false), scope, 2)).toBe(
      'review round 2 settled no ledger entry',
    );
  });
});

describe('comments in the styles claude likes', () => {
  it('numbered headings and bold numbers are comments like a plain numbered list', () => {
    const headings =
      '[CHANGES_REQUIRED]\n\n## Comments\n### 1. Missing tests\nStep 2 adds none.\n### 2. Wrong file\nUse src/a.ts.\n';
    expect(parseReview(headings, []).comments.map((c) => c.number)).toEqual([1, 2]);
    expect(parseReview(headings, []).comments[0]?.text).toBe('Missing tests Step 2 adds none.');
    const bold = '[CHANGES_REQUIRED]\n\n## Comments\n**1.** Add tests.\n**2. Wrong file** — use src/a.ts.\n';
    expect(parseReview(bold, []).comments.map((c) => c.number)).toEqual([1, 2]);
  });
});
