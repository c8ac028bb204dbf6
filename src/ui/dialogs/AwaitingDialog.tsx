// The dialog for what the engine waits for from the person: one per question of the decisions table that the
// TUI asks in a dialog (see decision-keys.ts); each choice becomes a `decide` event.
import type { EngineEvent } from '../../core/events.js';
import type { Awaiting, WorkflowState } from '../../core/types.js';
import { InterruptedDialog } from './InterruptedDialog.js';
import { decideEvent } from '../decision-keys.js';
import { ArbitrationDialog } from './ArbitrationDialog.js';
import {
  CommitFailedDialog,
  ExternalChangeDialog,
  ForbiddenChangeDialog,
  HunksOverlapDialog,
  LargeChangeDialog,
  MergeConflictsDialog,
  SecretDialog,
  StepFailedDialog,
} from './ExecutionDialogs.js';
import { QuestionDialog } from './QuestionDialog.js';
import { UsageLimitDialog } from './UsageLimitDialog.js';
import { DisagreementDialog } from './DisagreementDialog.js';
import { BudgetDialog, CodeEditDialog, ManualEditDialog, UnclearVerdictDialog } from './SmallDialogs.js';
import { DECISIONS } from '../../core/decisions.js';

interface AwaitingDialogProps {
  awaiting: Awaiting;
  onEvent: (event: EngineEvent) => void;
  /** Opens plan.md in $EDITOR (while the person edits it by hand). */
  onEditPlan: () => void;
  /** Opens plan.md or comments.md in $EDITOR (to resolve a merge's conflicts). */
  onEdit?: (file: 'plan' | 'comments') => void;
  /** The run's state (the interrupted dialog names the round). */
  state?: Pick<WorkflowState, 'iteration' | 'steps'>;
  /** plan.md and comments.md as they are now (the merge-conflicts dialog shows what is still in conflict). */
  texts?: { plan: string | null; comments: string | null };
}

export function AwaitingDialog({ awaiting: a, onEvent, onEditPlan, onEdit, texts, state }: AwaitingDialogProps) {
  const decide = (choice: string, rounds?: number): void => {
    const event = decideEvent(a, choice, rounds);
    if (event) onEvent(event);
  };
  switch (a.kind) {
    case 'arbitration':
      return <ArbitrationDialog iteration={a.iteration} onChoose={decide} />;
    case 'question':
      return (
        <QuestionDialog
          key={a.text}
          role={a.role}
          text={a.text}
          onAnswer={(text) => onEvent({ type: 'answer', text })}
        />
      );
    case 'interrupted':
      return (
        <InterruptedDialog
          awaiting={a}
          state={state ?? { iteration: 0, steps: [] }}
          onChoose={decide}
          onMessage={(text) => onEvent({ type: 'answer', text })}
        />
      );
    case 'manual_edit':
      return <ManualEditDialog onEdit={onEditPlan} onDone={() => decide('edited')} />;
    case 'code_review_cap':
      return (
        <ArbitrationDialog
          iteration={a.round}
          onChoose={decide}
          options={DECISIONS.code_review_cap.choices}
          title={
            a.noFixSteps === undefined
              ? `The code review still asks for changes after ${a.round} round(s) (see the Code tab). What now?`
              : `The planner listed no fix steps for the reviewer's comments (round ${a.round}):\n${a.noFixSteps.trim().split('\n').slice(0, 12).join('\n')}\nWhat now?`
          }
        />
      );
    case 'code_edit':
      return <CodeEditDialog onDone={() => decide('edited')} />;
    case 'disagreement':
      return <DisagreementDialog awaiting={a} onChoose={decide} />;
    case 'unclear_verdict':
      return <UnclearVerdictDialog awaiting={a} onChoose={decide} />;
    case 'step_failed':
      return <StepFailedDialog awaiting={a} onChoose={decide} />;
    case 'forbidden_change':
      return <ForbiddenChangeDialog awaiting={a} onChoose={decide} />;
    case 'secret_found':
      return <SecretDialog awaiting={a} onChoose={decide} />;
    case 'commit_failed':
      return <CommitFailedDialog awaiting={a} onChoose={decide} />;
    case 'hunks_overlap':
      return <HunksOverlapDialog awaiting={a} onChoose={decide} />;
    case 'large_change':
      return <LargeChangeDialog awaiting={a} onChoose={decide} />;
    case 'external_change':
      return <ExternalChangeDialog awaiting={a} onChoose={decide} />;
    case 'budget':
      return <BudgetDialog awaiting={a} onChoose={decide} />;
    case 'usage_limit':
      return <UsageLimitDialog awaiting={a} onChoose={decide} />;
    case 'merge_conflicts':
      return (
        <MergeConflictsDialog awaiting={a} fileText={texts?.[a.file]} onChoose={decide} onEdit={onEdit ?? onEditPlan} />
      );
    default:
      return null;
  }
}
