// The issue ledger and the stagnation rule in the pure state machine: entries across review rounds, the planner's
// answers, the stop before the cap with the disagreement brief, and what each ruling does.
import { describe, expect, it } from 'vitest';
import { initialCodeReview } from '../../../src/core/code-review.js';
import { newStepRun } from '../../../src/core/execution.js';
import type { EngineEvent } from '../../../src/core/events.js';
import { emptyLedger, type Ledger, type LedgerEntry } from '../../../src/core/ledger.js';
import { transition, type TransitionResult } from '../../../src/core/transition.js';
import type { CodeReviewState, WorkflowState } from '../../../src/core/types.js';
import { OPTS, running } from '../../helpers/states.js';

const review = { kind: 'review' } as const;
const respond = { kind: 'respond' } as const;

function reviewer(text: string): EngineEvent {
  return { type: 'agent_done', role: 'reviewer', action: review, text };
}
function planner(responses: string): EngineEvent {
  return {
    type: 'agent_done',
    role: 'planner',
    action: respond,
    text: `# Task: t\n\n## Steps\n1. [ ] Do it\n\n## Responses to review\n${responses}`,
  };
}

/** Applies the events in turn (auto mode: every next round is scheduled at once). */
function play(s: WorkflowState, ...events: EngineEvent[]): TransitionResult {
  let r: TransitionResult = { state: s, effects: [] };
  for (const e of events) r = transition(r.state, e, OPTS);
  return r;
}

function statuses(s: WorkflowState): Record<string, string> {
  return Object.fromEntries((s.ledger?.entries ?? []).map((e) => [e.id, e.status]));
}

const firstReview = (): WorkflowState => running('REVIEW', review, { mode: 'auto', ledger: emptyLedger() });

describe('the issue ledger across plan review rounds', () => {
  it('comments become entries; the planner’s markers and the reviewer’s ledger lines move them; new comments add entries', () => {
    const r1 = play(
      firstReview(),
      reviewer('[CHANGES_REQUIRED]\n\n## Comments\n1. Edit the right file.\n2. Add a test.'),
    );
    expect(statuses(r1.state)).toEqual({ L1: 'open', L2: 'open' });
    expect(r1.state.phase).toBe('RESPOND');

    const r2 = play(r1.state, planner('L1: addressed — step 1 edits src/q.ts\nL2: disputed — the tests exist'));
    expect(statuses(r2.state)).toEqual({ L1: 'addressed', L2: 'disputed' });
    expect(r2.state.ledger?.entries[1]).toMatchObject({ answer: 'the tests exist', disputed: true });

    const r3 = play(
      r2.state,
      reviewer(
        '[CHANGES_REQUIRED]\n\n## Ledger\nL1: resolved\nL2: open — no test covers it\n\n## Comments\n1. Name the flag.',
      ),
    );
    expect(statuses(r3.state)).toEqual({ L1: 'resolved', L2: 'open', L3: 'open' });
    expect(r3.state.ledger?.entries[1]).toMatchObject({ reraised: 1, note: 'no test covers it' });
    // One entry was settled: the loop goes on.
    expect(r3.state.phase).toBe('RESPOND');
    expect(r3.state.awaiting).toBeNull();
  });

  it('an approval settles what it does not mention and adds no entry for its remarks', () => {
    const ledger: Ledger = {
      ...emptyLedger(),
      next: 3,
      entries: [entry('L1', 'addressed', false), entry('L2', 'disputed', true)],
    };
    const r = play(
      running('REVIEW', review, { mode: 'auto', iteration: 1, ledger }),
      reviewer('[APPROVED]\n\n## Comments\n1. Minor: a typo.'),
    );
    expect(r.state.phase).toBe('APPROVED');
    expect(statuses(r.state)).toEqual({ L1: 'resolved', L2: 'withdrawn' });
  });
});

function entry(id: string, status: LedgerEntry['status'], disputed: boolean, reraised = 0): LedgerEntry {
  return {
    id,
    review: 'plan',
    step: null,
    round: 1,
    number: Number(id.slice(1)),
    point: `point ${id}`,
    status,
    answer: disputed ? `no to ${id}` : `did ${id}`,
    disputed,
    note: null,
    reraised,
  };
}

/** Round 2 of the plan review under way, with these entries live. */
function secondReview(entries: LedgerEntry[], extra: Partial<Ledger> = {}): WorkflowState {
  return running('REVIEW', review, {
    mode: 'auto',
    iteration: 1,
    ledger: { ...emptyLedger(), next: entries.length + 1, entries, ...extra },
  });
}

describe('the stagnation rule', () => {
  it('the first round is never stagnant, whatever it settles', () => {
    const r = play(firstReview(), reviewer('[CHANGES_REQUIRED]\n\n## Comments\n1. A.'));
    expect(r.state.awaiting).toBeNull();
    expect(r.state.phase).toBe('RESPOND');
  });

  it('a later round that settles no entry stops before the cap with the brief of the live entries', () => {
    const r = play(
      secondReview([entry('L1', 'addressed', false), entry('L2', 'disputed', true)]),
      reviewer('[CHANGES_REQUIRED]\n\nL1: open — not done\n'),
    );
    expect(r.state.iteration).toBe(2);
    expect(r.state.iteration).toBeLessThan(r.state.maxIterations);
    expect(r.state.awaiting).toEqual({
      kind: 'disagreement',
      review: 'plan',
      step: null,
      round: 2,
      reason: 'review round 2 settled no ledger entry',
      disputes: [
        { id: 'L2', status: 'disputed', reviewer: 'point L2', planner: 'no to L2', disputed: true },
        { id: 'L1', status: 'open', reviewer: 'point L1', planner: 'did L1', disputed: false },
      ],
    });
    expect(r.state.inflight).toBeNull();
  });

  it('a disputed entry raised again a second time stops the loop even when the round settled another one', () => {
    const r = play(
      secondReview([entry('L1', 'disputed', true, 1), entry('L2', 'addressed', false)]),
      reviewer('[CHANGES_REQUIRED]\n\n## Ledger\nL1: open — still wrong\nL2: resolved'),
    );
    expect(r.state.awaiting).toMatchObject({
      kind: 'disagreement',
      reason: 'the reviewer raised L1 again twice after the planner disputed it',
    });
  });

  it('a round with nothing live before it (no entries were read) is left to the cap', () => {
    const r = play(secondReview([]), reviewer('[CHANGES_REQUIRED]\n\nStill not good.'));
    expect(r.state.awaiting).toBeNull();
    expect(r.state.phase).toBe('RESPOND');
  });

  it('the rounds the person allowed at the cap are not cut short by the stagnation stop', () => {
    const s = secondReview([entry('L1', 'addressed', false)]);
    const capped = play({ ...s, maxIterations: 2 }, reviewer('[CHANGES_REQUIRED]\n\nL1: open'));
    const more = transition(
      { ...capped.state, mode: 'auto' },
      { type: 'decide', on: 'arbitration', choice: 'continue', rounds: 2 },
      OPTS,
    );
    const round3 = play(more.state, planner('L1: addressed — again'), reviewer('[CHANGES_REQUIRED]\n\nL1: open'));
    expect(round3.state.iteration).toBe(3);
    expect(round3.state.awaiting).toBeNull();
    const round4 = play(round3.state, planner('L1: addressed — again'), reviewer('[CHANGES_REQUIRED]\n\nL1: open'));
    expect(round4.state.awaiting).toEqual({ kind: 'arbitration', iteration: 4 });
  });

  it('at the cap the cap question comes first', () => {
    const s = secondReview([entry('L1', 'addressed', false)]);
    const r = play({ ...s, maxIterations: 2 }, reviewer('[CHANGES_REQUIRED]\n\nL1: open'));
    expect(r.state.awaiting).toEqual({ kind: 'arbitration', iteration: 2 });
  });
});

describe('the person’s ruling at a disagreement brief', () => {
  /** Stuck after round 2; the wait made the run manual, the person's headless `--auto` makes it auto again. */
  const stuck = (): WorkflowState => ({
    ...play(secondReview([entry('L1', 'disputed', true)]), reviewer('[CHANGES_REQUIRED]\n\nL1: open')).state,
    mode: 'auto',
  });

  it('side with the reviewer: the entry is open again and the planner’s next round is told to apply it', () => {
    const r = transition(stuck(), { type: 'decide', on: 'disagreement', choice: 'reviewer' }, OPTS);
    expect(r.state.phase).toBe('RESPOND');
    expect(r.state.inflight).toEqual(respond);
    expect(r.state.ledger?.ruling).toEqual(['L1']);
    expect(r.state.ledger?.entries[0]).toMatchObject({ status: 'open', disputed: false });
    expect(r.state.maxIterations).toBeGreaterThanOrEqual(3);
    // The planner's answer uses the ruling up.
    const answered = play(r.state, planner('L1: addressed — applied as the person ruled'));
    expect(answered.state.ledger?.ruling).toEqual([]);
    expect(statuses(answered.state)).toEqual({ L1: 'addressed' });
  });

  it('side with the planner: the entries are withdrawn and the plan is approved', () => {
    const r = transition(stuck(), { type: 'decide', on: 'disagreement', choice: 'planner' }, OPTS);
    expect(r.state.phase).toBe('APPROVED');
    expect(statuses(r.state)).toEqual({ L1: 'withdrawn' });
    expect(r.effects).toContainEqual({ type: 'set_plan_status', status: 'approved' });
  });

  it('more rounds: N rounds without the check, then the rule applies again', () => {
    const r = transition(stuck(), { type: 'decide', on: 'disagreement', choice: 'continue', rounds: 1 }, OPTS);
    expect(r.state.ledger?.quiet).toEqual({ review: 'plan', step: null, round: 3 });
    const quietRound = play(r.state, planner('L1: disputed — still no'), reviewer('[CHANGES_REQUIRED]\n\nL1: open'));
    expect(quietRound.state.iteration).toBe(3);
    expect(quietRound.state.awaiting).toBeNull();
    const next = play(quietRound.state, planner('L1: disputed — no'), reviewer('[CHANGES_REQUIRED]\n\nL1: open'));
    expect(next.state.awaiting?.kind).toBe('disagreement');
  });

  it('edit waits for the person’s edit of plan.md; stop goes back to goal refinement', () => {
    const edit = transition(stuck(), { type: 'decide', on: 'disagreement', choice: 'edit' }, OPTS);
    expect(edit.state.awaiting).toEqual({ kind: 'manual_edit' });
    const stop = transition(stuck(), { type: 'decide', on: 'disagreement', choice: 'stop' }, OPTS);
    expect(stop.state.phase).toBe('REFINE_GOAL');
  });
});

function codeReview(extra: Partial<CodeReviewState>): CodeReviewState {
  return { ...(initialCodeReview({ mode: 'final', maxRounds: 5 }) as CodeReviewState), ...extra };
}

describe('the same rules on code review rounds', () => {
  it('round 2 of the final review that settles nothing stops with the code brief; siding with the planner ends the run', () => {
    const ledger: Ledger = {
      ...emptyLedger(),
      next: 2,
      entries: [{ ...entry('L1', 'disputed', true), review: 'code' }],
    };
    const s = running(
      'CODE_REVIEW',
      { kind: 'code_review', step: null },
      {
        mode: 'auto',
        codeReview: codeReview({ round: 1, comments: 'c' }),
        ledger,
        steps: [{ n: 1, title: 'a', done: true }],
      },
    );
    const r = transition(
      s,
      {
        type: 'agent_done',
        role: 'reviewer',
        action: { kind: 'code_review', step: null },
        text: '[CHANGES_REQUIRED]\n\nL1: open — no',
      },
      OPTS,
    );
    expect(r.state.awaiting).toMatchObject({ kind: 'disagreement', review: 'code', step: null, round: 2 });
    const sided = transition(r.state, { type: 'decide', on: 'disagreement', choice: 'planner' }, OPTS);
    expect(sided.state.phase).toBe('DONE');
    expect(statuses(sided.state)).toEqual({ L1: 'withdrawn' });
  });

  it('each: a fix attempt’s report answers its step’s entries only; another step’s review starts with none live', () => {
    const ledger: Ledger = {
      ...emptyLedger(),
      next: 3,
      entries: [
        { ...entry('L1', 'open', false), review: 'code', step: 1, answer: null },
        { ...entry('L2', 'open', false), review: 'code', step: 2, answer: null },
      ],
    };
    const action = { kind: 'execute_step', step: 1, attempt: 2, review: 'c' } as const;
    const s = running('EXECUTE', action, {
      mode: 'auto',
      codeReview: codeReview({ mode: 'each', step: 1, round: 1 }),
      stepRun: { ...newStepRun(running('EXECUTE', action), 1, 'tree', 't'), attempt: 2 },
      steps: [{ n: 1, title: 'a', done: false }],
      ledger,
    });
    const report = 'Kept hi.\nL1: disputed — hi is the house style\nL2: addressed — not mine\nSummary: keep hi';
    const r = transition(s, { type: 'agent_done', role: 'planner', action, text: report }, OPTS);
    expect(r.state.ledger?.entries.map((e) => [e.id, e.status, e.answer])).toEqual([
      ['L1', 'disputed', 'hi is the house style'],
      ['L2', 'open', null],
    ]);
  });
});
