// What the person's ruling at a disagreement brief does (issue 19, core/stagnation.ts; the choices are the decisions
// table's `disagreement`). Pure, like transition.ts.
//   reviewer → the listed entries are open again and marked as the person's ruling; the planner gets one more round
//              (plan: a revision; code: fix steps, or the step's next attempt) told to apply them; the cap grows so
//              that round is reviewed.
//   planner  → the listed entries are withdrawn; they are all the review's live entries, so the plan is approved
//              (code: the step is committed, or the run's code accepted).
//   edit     → as at the cap: the person edits plan.md (code: the code), then `edited` sends it to review.
//   continue → N more rounds without the stagnation stop (the cap grows to reach them); then the usual rules.
//   stop     → back to goal refinement, plan and commits kept.
import { schedule } from './approval.js';
import { finishOrCommit, fixWork } from './code-review-loop.js';
import type { ChoiceId } from './decisions.js';
import type { Effect } from './events.js';
import { emptyLedger, quietFor, ruleForReviewer, withdrawByPerson } from './ledger.js';
import { approve } from './review-loop.js';
import { stopToGoal, type TransitionResult } from './transition-rules.js';
import type { Awaiting, CodeReviewState, WorkflowState } from './types.js';

type Brief = Extract<Awaiting, { kind: 'disagreement' }>;

function what(w: Brief): string {
  if (w.review === 'plan') return 'the plan review';
  return w.step === null ? "the code review of the run's changes" : `the code review of step ${w.step}`;
}

/** The planner's next round for the review (the cap raised to reach `round`), with the ledger as ruled. */
function anotherRound(s: WorkflowState, w: Brief, round: number, effects: Effect[]): TransitionResult {
  if (w.review === 'plan')
    return schedule(
      { ...s, phase: 'RESPOND', maxIterations: Math.max(s.maxIterations, round) },
      { kind: 'respond' },
      effects,
    );
  const cr = s.codeReview as CodeReviewState;
  return fixWork({ ...s, codeReview: { ...cr, limit: Math.max(cr.limit, round) } }, w.step, effects);
}

export function onDisagreementChoice(
  s: WorkflowState,
  choice: ChoiceId<'disagreement'>,
  w: Brief,
  rounds: number | undefined,
  reject: (why: string) => never,
): TransitionResult {
  const ledger = s.ledger ?? emptyLedger();
  const ids = w.disputes.map((d) => d.id);
  const cleared: WorkflowState = { ...s, awaiting: null };
  const listed = ids.join(', ') || 'no entry';
  switch (choice) {
    case 'reviewer':
      return anotherRound({ ...cleared, ledger: ruleForReviewer(ledger, ids) }, w, w.round + 1, [
        { type: 'log', title: `Person sided with the reviewer on ${listed} (${what(w)}); the planner applies them` },
      ]);
    case 'planner': {
      const next: WorkflowState = { ...cleared, ledger: withdrawByPerson(ledger, ids) };
      const how = `Person sided with the planner on ${listed}: withdrawn (${what(w)})`;
      if (w.review === 'plan') return approve(next, [], `${how}; plan approved at iteration ${s.iteration}`);
      return finishOrCommit(next, w.step, [{ type: 'log', title: `${how}; code accepted` }]);
    }
    case 'edit':
      return w.review === 'plan'
        ? {
            state: { ...cleared, awaiting: { kind: 'manual_edit' } },
            effects: [{ type: 'log', title: 'Person is editing the plan by hand' }],
          }
        : {
            state: { ...cleared, awaiting: { kind: 'code_edit', step: w.step } },
            effects: [{ type: 'log', title: 'Person is editing the code by hand' }],
          };
    case 'continue': {
      const more = rounds ?? 1;
      if (!Number.isInteger(more) || more < 1) reject('continue needs a whole number of rounds ≥ 1');
      return anotherRound({ ...cleared, ledger: quietFor(ledger, w, w.round + more) }, w, w.round + more, [
        { type: 'log', title: `Person allowed ${more} more round(s) of ${what(w)}` },
      ]);
    }
    case 'stop':
      return stopToGoal(s, `Stopped at ${what(w)} (the reviewer and the planner disagree); back to goal refinement`);
  }
}
