// Esc while an agent works (the habit Claude Code and Codex users bring): the round under way is stopped, the phase
// stays, and the person runs it again — as it was, or with a message added to its prompt — or stops the phase.
// Unlike `s` (stop), nothing goes back to goal refinement unless the person says so.
import { roleOf, runNow, waitForPerson } from './approval.js';
import type { ChoiceId } from './decisions.js';
import type { TransitionResult } from './transition-rules.js';
import { stopToGoal } from './transition-rules.js';
import { isAgentAction, type Action, type WorkflowState } from './types.js';

type Reject = (why: string) => never;

/** An agent's round (not agent-collab's own tests, commit or rollback): what Esc can interrupt. */
export function isAgentRound(action: Action | null): boolean {
  return action !== null && isAgentAction(action);
}

export function onInterrupt(s: WorkflowState, reject: Reject): TransitionResult {
  const action = s.inflight;
  if (!action) reject('no agent round is running');
  const a = action as Action;
  // agent-collab's own work (tests, a commit, a rollback) is short and must finish: only an agent's round stops.
  if (!isAgentRound(a)) reject(`agent-collab's own ${a.kind.replace('_', ' ')} cannot be interrupted`);
  const role = roleOf(a);
  // A message sent with an earlier run of the round is not repeated: the person says what applies now.
  const again = 'note' in a ? (({ note: _previous, ...rest }) => rest)(a) : a;
  return {
    // The mode stays: an auto run the person nudged goes on by itself once the round runs again.
    state: {
      ...waitForPerson(s, { kind: 'interrupted', role, action: again as Action }),
      mode: s.mode,
      pendingCommand: null,
    },
    effects: [{ type: 'stop_agents' }, { type: 'log', title: `Person interrupted the ${role}'s round (${a.kind})` }],
  };
}

/** The person's message, framed for the agent: it comes after the round's task in its prompt. */
export function personsNote(text: string): string {
  return (
    'The person interrupted your previous attempt at this task and adds the message below. Take it into account, ' +
    `and still give your complete answer in the form asked above.\n\n${text}`
  );
}

/** The person's answer after an interruption; `note`: their message (the `answer` event's text). */
export function onInterruptedChoice(
  s: WorkflowState,
  w: Extract<NonNullable<WorkflowState['awaiting']>, { kind: 'interrupted' }>,
  choice: ChoiceId<'interrupted'>,
  note: string | undefined,
  reject: Reject,
): TransitionResult {
  switch (choice) {
    case 'retry':
      return runNow(s, w.action, [{ type: 'log', title: `Person ran the interrupted ${w.role} round again` }]);
    case 'message': {
      const text = note?.trim();
      if (!text) reject('the message is empty: type it (--answer "…"), or run the round again as it was (retry)');
      return runNow(s, { ...w.action, note: personsNote(text ?? '') } as Action, [
        { type: 'log', title: `Person ran the interrupted ${w.role} round again with a message`, lines: [text ?? ''] },
      ]);
    }
    case 'stop':
      return stopToGoal(s, `Stopped after interrupting the ${w.role}; back to goal refinement (plan kept)`);
  }
}
