// What a person can decide from the command line when the engine waits (`--decide`, `--answer`).
import type { EngineEvent } from '../core/events.js';
import type { Awaiting } from '../core/types.js';
import { UserError } from '../core/errors.js';

export type Decision =
  | { kind: 'approve' }
  | { kind: 'continue'; rounds: number }
  | { kind: 'edit' }
  | { kind: 'edited' }
  | { kind: 'cancel' }
  | { kind: 'retry' }
  | { kind: 'changes' }
  | { kind: 'skip' }
  | { kind: 'rollback' }
  | { kind: 'stop' }
  | { kind: 'commit-anyway' }
  | { kind: 'leave' }
  | { kind: 'overwrite' }
  | { kind: 'merge' }
  | { kind: 'discard' };

export const DECISION_HELP = 'approve | continue:N | edit | edited | cancel | retry | changes | skip | rollback | stop | commit-anyway | leave | continue | overwrite | merge | discard';

const SIMPLE = new Set(['approve', 'edit', 'edited', 'cancel', 'retry', 'changes', 'skip', 'rollback', 'stop', 'commit-anyway', 'leave', 'overwrite', 'merge', 'discard']);

export function parseDecision(text: string): Decision {
  const t = text.trim().toLowerCase();
  const cont = /^continue(?::(\d+))?$/.exec(t);
  // Plain "continue" also means "go on without the commit" when a commit failed; continue:N is for arbitration.
  if (t === 'continue') return { kind: 'continue', rounds: 1 };
  if (cont) {
    const rounds = Number(cont[1] ?? '1');
    if (!Number.isInteger(rounds) || rounds < 1 || rounds > 100) throw new UserError(`--decide continue:N needs N from 1 to 100 (got "${text}")`);
    return { kind: 'continue', rounds };
  }
  if (SIMPLE.has(t)) return { kind: t } as Decision;
  throw new UserError(`--decide must be one of ${DECISION_HELP} (got "${text}")`);
}

/** The event that carries out `decision` while the engine waits for `w`; null when it does not apply there. */
export function decisionEvent(w: Awaiting, decision: Decision | undefined, answer: string | undefined): EngineEvent | null {
  if (w.kind === 'question' && answer?.trim()) return { type: 'answer', text: answer };
  if (!decision) return null;
  switch (w.kind) {
    case 'arbitration':
      if (decision.kind === 'approve') return { type: 'arbitrate', choice: 'force_approve' };
      if (decision.kind === 'continue') return { type: 'arbitrate', choice: 'continue', rounds: decision.rounds };
      if (decision.kind === 'edit') return { type: 'arbitrate', choice: 'edit' };
      if (decision.kind === 'cancel') return { type: 'arbitrate', choice: 'cancel' };
      return null;
    case 'manual_edit':
      if (decision.kind === 'edited') return { type: 'edit_done' };
      if (decision.kind === 'cancel') return { type: 'cancel' };
      return null;
    case 'unclear_verdict':
      if (decision.kind === 'retry') return { type: 'unclear_choice', choice: 'retry' };
      if (decision.kind === 'changes') return { type: 'unclear_choice', choice: 'changes_required' };
      if (decision.kind === 'cancel') return { type: 'cancel' };
      return null;
    case 'failure':
      if (decision.kind === 'retry') return { type: 'go' };
      if (decision.kind === 'cancel') return { type: 'cancel' };
      return null;
    case 'step_failed':
      if (decision.kind === 'retry' || decision.kind === 'skip' || decision.kind === 'stop') return { type: 'step_choice', choice: decision.kind };
      if (decision.kind === 'rollback' && !w.rolledBack) return { type: 'step_choice', choice: 'rollback' };
      if (decision.kind === 'cancel') return { type: 'cancel' };
      return null;
    case 'secret_found':
      if (decision.kind === 'retry' || decision.kind === 'stop') return { type: 'secret_choice', choice: decision.kind };
      if (decision.kind === 'commit-anyway') return { type: 'secret_choice', choice: 'commit_anyway' };
      if (decision.kind === 'leave') return { type: 'secret_choice', choice: 'leave_uncommitted' };
      if (decision.kind === 'cancel') return { type: 'cancel' };
      return null;
    case 'commit_failed':
      if (decision.kind === 'retry' || decision.kind === 'stop') return { type: 'commit_choice', choice: decision.kind };
      if (decision.kind === 'continue') return { type: 'commit_choice', choice: 'continue' };
      if (decision.kind === 'cancel') return { type: 'cancel' };
      return null;
    case 'external_change':
      if (decision.kind === 'overwrite' || decision.kind === 'merge' || decision.kind === 'discard') return { type: 'external_choice', choice: decision.kind };
      if (decision.kind === 'cancel') return { type: 'cancel' };
      return null;
    default:
      return decision.kind === 'cancel' ? { type: 'cancel' } : null;
  }
}
