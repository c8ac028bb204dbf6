// What keeps the screen from showing stale state (issue 20, defect 11/13): a flash line outliving its round, and
// auto mode switched off by a question without a word.
import type { WorkflowState } from '../core/types.js';
import type { ViewState } from './view-model.js';

/** A question that stops auto mode (the engine waits in manual mode) is said so, not only shown as MANUAL. */
export function autoStoppedBy(prev: WorkflowState, s: WorkflowState): string | null {
  if (prev.mode !== 'auto' || s.mode !== 'manual' || !s.awaiting || prev.awaiting) return null;
  if (s.awaiting.kind === 'go' || s.awaiting.kind === 'goal') return null; // a pause, a stop: the person asked
  return 'Auto mode is off: agent-collab waits for your answer (a turns auto mode back on after it).';
}

/** The question agent-collab itself puts to an agent, said before the agent's answer (it stood alone, "none"). */
export function questionAsked(prev: WorkflowState, s: WorkflowState): string | null {
  const a = s.inflight;
  if (a?.kind !== 'ask_test_command' || prev.inflight?.kind === 'ask_test_command') return null;
  return `No test command is configured or found: agent-collab asks the planner which command tests step ${a.step} (its answer follows; "none" means the step is not tested).`;
}

/**
 * A flash line belongs to the round it came in: once an agent round has ended since, the next question clears it
 * (a denial stayed under the next step's question). A notice between a round's end and its question stays.
 */
export function withFreshFlash(prev: ViewState, next: ViewState): ViewState {
  const f = next.flash;
  if (!f) return next;
  if (f !== prev.flash) return f.round === undefined ? { ...next, flash: { ...f, round: next.roundCount } } : next;
  const newQuestion = next.awaiting !== null && next.awaiting !== prev.awaiting;
  return newQuestion && (f.round ?? next.roundCount) < next.roundCount ? { ...next, flash: null } : next;
}
