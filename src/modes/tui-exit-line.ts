// The one line the TUI leaves on the normal screen when it exits: where the run stands and how to go on.
import { isEmptyRun } from '../core/transition-rules.js';
import type { WorkflowState } from '../core/types.js';

export function tuiExitLine(s: WorkflowState, stoppedBy: string | null): string {
  if (stoppedBy) return `agent-collab: stopped: ${stoppedBy}`;
  const done = s.steps.filter((st) => st.done).length;
  if (s.phase === 'DONE')
    return `agent-collab: done, ${done} of ${s.steps.length} step(s) committed; the run's log is .agent-collab/log.md`;
  if (s.phase === 'CANCELLED')
    return 'agent-collab: run cancelled (plan and log kept); run `agent-collab` to start a new goal';
  if (isEmptyRun(s)) return 'agent-collab: no run started; run `agent-collab` to state a goal';
  const where =
    s.steps.length > 0 && s.phase === 'EXECUTE' ? `step ${s.currentStep ?? done + 1} of ${s.steps.length}` : s.phase;
  return `agent-collab: run saved at ${where}; run \`agent-collab\` here to continue it`;
}
