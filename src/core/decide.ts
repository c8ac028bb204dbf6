// The person's `decide` at a question (core/decisions.ts): what each choice does to the run.
import { onInterruptedChoice } from './interrupt.js';
import { runNow, schedule } from './approval.js';
import { onBudgetChoice } from './budget-guard.js';
import { onCommandChoice } from './command-hold.js';
import { onLargeChoice, onOverlapChoice } from './commit-holds.js';
import type { DecideEvent } from './decisions.js';
import type { EngineEvent } from './events.js';
import { onCommitChoice, onSecretChoice, onStepChoice } from './execution.js';
import { onForbiddenChoice } from './repo-invariants.js';
import { approve, applyVerdict } from './review-loop.js';
import { applyCodeVerdict, onCodeCapChoice, onCodeEdited } from './code-review-loop.js';
import { onDisagreementChoice } from './disagreement-choice.js';
import { quietFor } from './ledger.js';
import { PLAN_SCOPE } from './ledger-state.js';
import {
  execOpts,
  reject,
  requireAwaiting,
  stopToGoal,
  type TransitionOptions,
  type TransitionResult,
} from './transition-rules.js';
import type { WorkflowState } from './types.js';
import { onLimitChoice } from './usage-limit.js';

/** How the state machine goes on from here (the whole `transition`, for choices that are another event). */
type Next = (s: WorkflowState, e: EngineEvent) => TransitionResult;

/** The person's choice at one of the questions of decisions.ts. */
export function onDecide(s: WorkflowState, e: DecideEvent, opts: TransitionOptions, next: Next): TransitionResult {
  if (e.on === 'command') return onCommandChoice(s, e.id, e.choice, execOpts(opts), (why) => reject(s, e, why));
  switch (e.on) {
    case 'arbitration': {
      requireAwaiting(s, e, 'arbitration');
      const cleared: WorkflowState = { ...s, awaiting: null };
      switch (e.choice) {
        case 'approve':
          return approve(cleared, [], `Plan force-approved by the person at iteration ${s.iteration}`);
        case 'continue': {
          const rounds = e.rounds ?? 0;
          if (!Number.isInteger(rounds) || rounds < 1) reject(s, e, 'continue needs a whole number of rounds ≥ 1');
          // The rounds the person asked for are not cut short by the stagnation stop (core/stagnation.ts).
          const next: WorkflowState = {
            ...cleared,
            phase: 'RESPOND',
            maxIterations: s.iteration + rounds,
            ledger: quietFor(s.ledger, PLAN_SCOPE, s.iteration + rounds),
          };
          return schedule(next, { kind: 'respond' }, [
            { type: 'log', title: `Person allowed ${rounds} more round(s)` },
          ]);
        }
        case 'edit':
          return {
            state: { ...cleared, awaiting: { kind: 'manual_edit' } },
            effects: [{ type: 'log', title: 'Person is editing the plan by hand' }],
          };
        case 'cancel':
          return next(cleared, { type: 'cancel' });
      }
      return reject(s, e, 'unknown choice');
    }
    case 'manual_edit': {
      requireAwaiting(s, e, 'manual_edit');
      const next: WorkflowState = {
        ...s,
        awaiting: null,
        phase: 'REVIEW',
        maxIterations: Math.max(s.maxIterations, s.iteration + 1),
      };
      return schedule(next, { kind: 'review' }, [
        { type: 'accept_edit', file: 'plan' },
        { type: 'log', title: 'Plan edited by the person; sent to review' },
      ]);
    }
    case 'unclear_verdict': {
      const w = requireAwaiting(s, e, 'unclear_verdict');
      if (e.choice === 'retry') return runNow({ ...s, unclearCount: 1 }, w.action);
      // The person read the answer and says which verdict it gives.
      const verdict = e.choice === 'approved' ? 'APPROVED' : 'CHANGES_REQUIRED';
      if (w.action.kind === 'code_review')
        return applyCodeVerdict({ ...s, awaiting: null }, w.action.step, verdict, `[${verdict}]\n\n${w.text}`, false);
      return applyVerdict({ ...s, awaiting: null }, verdict, `[${verdict}]\n\n${w.text}`, false);
    }
    case 'code_review_cap': {
      const w = requireAwaiting(s, e, 'code_review_cap');
      return onCodeCapChoice(s, e.choice, w, e.rounds, (why) => reject(s, e, why));
    }
    case 'code_edit':
      return onCodeEdited(s, requireAwaiting(s, e, 'code_edit'));
    case 'interrupted': {
      const w = requireAwaiting(s, e, 'interrupted');
      return onInterruptedChoice(s, w, e.choice, undefined, (why) => reject(s, e, why));
    }
    case 'disagreement': {
      const w = requireAwaiting(s, e, 'disagreement');
      return onDisagreementChoice(s, e.choice, w, e.rounds, (why) => reject(s, e, why));
    }
    case 'failure':
      requireAwaiting(s, e, 'failure');
      return next(s, { type: 'go' });
    case 'step_failed': {
      const w = requireAwaiting(s, e, 'step_failed');
      if (e.choice === 'stop') return stopAtStep(s, w.step, 'by the person', PLAN_KEPT);
      if (e.choice === 'rollback' && w.rolledBack) reject(s, e, 'the step is already rolled back');
      return onStepChoice(s, e.choice, w);
    }
    case 'forbidden_change': {
      const w = requireAwaiting(s, e, 'forbidden_change');
      if (e.choice === 'stop') return stopAtStep(s, w.step, '(the agent changed what it must not)', PLAN_KEPT);
      return onForbiddenChoice(s, e.choice, w);
    }
    case 'secret_found': {
      const w = requireAwaiting(s, e, 'secret_found');
      if (e.choice === 'stop') return stopAtStep(s, w.step, '(possible secret)', UNCOMMITTED);
      return onSecretChoice(s, e.choice, w);
    }
    case 'commit_failed': {
      const w = requireAwaiting(s, e, 'commit_failed');
      if (e.choice === 'stop') return stopAtStep(s, w.step, '(commit failed)', UNCOMMITTED);
      return onCommitChoice(s, e.choice, w);
    }
    case 'hunks_overlap': {
      const w = requireAwaiting(s, e, 'hunks_overlap');
      if (e.choice === 'stop')
        return stopAtStep(s, w.step, '(the agent changed lines you had changed too)', UNCOMMITTED);
      return onOverlapChoice(s, e.choice, w);
    }
    case 'budget':
      return onBudgetChoice(s, e.choice, requireAwaiting(s, e, 'budget'));
    case 'usage_limit':
      return onLimitChoice(s, e.choice, requireAwaiting(s, e, 'usage_limit'));
    case 'large_change':
      return onLargeChoice(s, e.choice, requireAwaiting(s, e, 'large_change'));
    case 'merge_conflicts': {
      const w = requireAwaiting(s, e, 'merge_conflicts');
      // `edit` only opens the editor (the TUI does that); the run goes on waiting.
      if (e.choice === 'edit') return { state: s, effects: [] };
      const { kind: _kind, ...conflict } = w;
      return {
        state: { ...s, inflight: w.action, awaiting: null },
        effects: [
          {
            type: 'log',
            title: `Person chose ${e.choice} (${w.file === 'plan' ? 'plan.md' : 'comments.md'} conflicts)`,
          },
          { type: 'resolve_conflicts', ...conflict, choice: e.choice },
        ],
      };
    }
    case 'external_change': {
      const w = requireAwaiting(s, e, 'external_change');
      return {
        state: { ...s, inflight: w.action, awaiting: null },
        effects: [
          { type: 'log', title: `Person chose to ${e.choice} (${w.file === 'plan' ? 'plan.md' : 'comments.md'})` },
          { type: 'merge_external', role: w.role, action: w.action, file: w.file, text: w.text, choice: e.choice },
        ],
      };
    }
  }
}

const PLAN_KEPT = 'plan kept';
const UNCOMMITTED = 'changes left uncommitted';

/** `stop` at a question about a step: back to goal refinement, saying why and what is left of the step. */
function stopAtStep(s: WorkflowState, step: number, why: string, left: string): TransitionResult {
  return stopToGoal(s, `Stopped at step ${step} ${why}; back to goal refinement (${left})`);
}
