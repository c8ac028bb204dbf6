// The issue ledger in the TUI (issue 19): the Comments tab lists the entries (id, status, one line each) above
// comments.md; the disagreement brief shows both sides of each live entry and sends the table's choices.
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { Ledger, LedgerEntry } from '../../../src/core/ledger.js';
import type { WorkflowState } from '../../../src/core/types.js';
import { fakeFiles, KEY, renderApp, waitFor } from './ui-helpers.js';

afterEach(() => cleanup());

function entry(id: string, status: LedgerEntry['status'], point: string, answer: string | null): LedgerEntry {
  return {
    id,
    review: 'plan',
    step: null,
    round: 1,
    number: Number(id.slice(1)),
    point,
    status,
    answer,
    disputed: status === 'disputed',
    note: null,
    reraised: 0,
  };
}

const LEDGER: Ledger = {
  next: 3,
  entries: [
    entry('L1', 'resolved', 'Name the file in step 1.', 'step 1 names count.txt'),
    entry('L2', 'disputed', 'Use a lock file for the counter.', 'one process writes it'),
  ],
  quiet: null,
  ruling: [],
};

describe('the Comments tab', () => {
  it('lists the ledger’s entries, one line each with id and status, above comments.md', async () => {
    const r = await renderApp(
      { phase: 'RESPOND', iteration: 1, lastVerdict: 'CHANGES_REQUIRED', ledger: LEDGER },
      { files: fakeFiles({ comments: '[CHANGES_REQUIRED]\n\n## Comments\n1. Use a lock file for the counter.' }) },
    );
    await r.press('3');
    await waitFor(() => expect(r.frame()).toContain('Issue ledger: 2 entries, 1 live'));
    const frame = r.frame();
    expect(frame).toMatch(/L1 {3}resolved {2}plan r1 {5}Name the file in step 1\./);
    expect(frame).toMatch(/L2 {3}disputed {2}plan r1 {5}Use a lock file for the counter\./);
    expect(frame.indexOf('Issue ledger')).toBeLessThan(frame.indexOf('✗ CHANGES_REQUIRED'));
  });
});

describe('the disagreement brief', () => {
  const BRIEF: Partial<WorkflowState> = {
    phase: 'REVIEW',
    iteration: 3,
    ledger: LEDGER,
    awaiting: {
      kind: 'disagreement',
      review: 'plan',
      step: null,
      round: 3,
      reason: 'the reviewer raised L2 again twice after the planner disputed it',
      disputes: [
        {
          id: 'L2',
          status: 'disputed',
          reviewer: 'Use a lock file for the counter.',
          planner: 'one process writes it',
          disputed: true,
        },
      ],
    },
  };

  it('shows the reviewer’s point beside the planner’s answer and the five choices; 1 sides with the reviewer', async () => {
    const r = await renderApp(BRIEF);
    const frame = r.frame();
    expect(frame).toContain('The plan review is stuck after round 3');
    expect(frame).toMatch(
      /L2 +reviewer: Use a lock file for the counter\. +planner \(disputes\): one process writes it/,
    );
    for (const label of [
      '1. Side with the reviewer',
      '2. Side with the planner',
      '3. Edit by hand',
      '4. Continue',
      '5. Stop',
    ])
      expect(frame).toContain(label);
    await r.press('1');
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'decide', on: 'disagreement', choice: 'reviewer' }]));
  });

  it('siding with the planner asks for a y first; more rounds asks for their number', async () => {
    const r = await renderApp(BRIEF);
    await r.press('2');
    await waitFor(() => expect(r.frame()).toContain('Withdraw the reviewer’s points and approve as it is? [y/N]'));
    expect(r.engine.sent).toEqual([]);
    await r.press('y');
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'decide', on: 'disagreement', choice: 'planner' }]));
    cleanup();
    const r2 = await renderApp(BRIEF);
    await r2.press('4', KEY.backspace, '3', KEY.enter);
    await waitFor(() =>
      expect(r2.engine.sent).toEqual([{ type: 'decide', on: 'disagreement', choice: 'continue', rounds: 3 }]),
    );
  });
});
