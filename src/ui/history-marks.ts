// A resumed run's conversation read back from debug.log, between two marks: where it came from, and where the
// resumed run goes on (so the resumed round's first words start a message of their own, not the end of the last
// one read back).
import type { ViewAction } from './view-model.js';

const mark = (kind: 'notice' | 'phase', text: string): ViewAction => ({
  type: 'entries',
  entries: [{ who: 'agent-collab', kind, text, detail: null }],
  skipped: 0,
});

export function withHistoryMarks(history: readonly ViewAction[]): ViewAction[] {
  return [mark('notice', 'Earlier in this run (read back from debug.log):'), ...history, mark('phase', 'resumed')];
}
