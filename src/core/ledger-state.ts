// The issue ledger inside the workflow state: which review an agent round belongs to, the planner's answers
// recorded as they come, and the stop with a disagreement brief when the loop is stuck. Pure.
import { waitForPerson } from './approval.js';
import type { Effect } from './events.js';
import { afterResponse, type LedgerScope } from './ledger.js';
import { disputesOf } from './stagnation.js';
import type { TransitionResult } from './transition-rules.js';
import type { Action, WorkflowState } from './types.js';

export const PLAN_SCOPE: LedgerScope = { review: 'plan', step: null };

export function codeScope(step: number | null): LedgerScope {
  return { review: 'code', step };
}

/** The review a planner's round answers, or null when it answers none (a plain step, the plan's first draft…). */
function answeredScope(s: WorkflowState, action: Action): LedgerScope | null {
  if (action.kind === 'respond') return PLAN_SCOPE;
  if (action.kind === 'code_fix') return codeScope(null);
  if (action.kind === 'execute_step' && action.review !== undefined) return codeScope(action.step);
  // final mode: the fix steps' reports may answer entries too (the planner was given them with the comments).
  if (action.kind === 'execute_step' && s.codeReview?.mode === 'final' && s.codeReview.comments) return codeScope(null);
  return null;
}

/** The planner's answer of `action`, read for its answers per ledger entry. */
export function recordAnswer(s: WorkflowState, action: Action, text: string): WorkflowState {
  const scope = answeredScope(s, action);
  if (!scope || !s.ledger) return s;
  const ledger = afterResponse(s.ledger, scope, text);
  return ledger === s.ledger ? s : { ...s, ledger };
}

/** The loop is stuck (`reason`): the run waits for the person with the brief of the review's live entries. */
export function disagree(
  s: WorkflowState,
  scope: LedgerScope,
  round: number,
  reason: string,
  effects: Effect[],
): TransitionResult {
  const disputes = disputesOf(s.ledger, scope);
  return {
    state: waitForPerson(s, { kind: 'disagreement', review: scope.review, step: scope.step, round, reason, disputes }),
    effects: [
      ...effects,
      {
        type: 'log',
        title: `The review loop is stuck (${reason}); waiting for the person to decide`,
        lines: disputes.map(
          (d) => `${d.id} [${d.status}] reviewer: ${d.reviewer} | planner: ${d.planner ?? '(no answer)'}`,
        ),
      },
    ],
  };
}
