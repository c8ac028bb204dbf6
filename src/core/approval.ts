// The approval controller: decides whether the next agent round runs now (auto mode) or waits for the
// person's go (manual mode), and turns a requested pause into manual mode at the next safe point — the end
// of the round under way, after its files are written, never in the middle of one.
import type { Effect } from './events.js';
import type { TransitionResult } from './transition.js';
import type { Action, Awaiting, Role, WorkflowState } from './types.js';

/** Nothing runs until the person answers `awaiting`: manual mode from here, a pending pause is used up. */
export function waitForPerson(s: WorkflowState, awaiting: Awaiting): WorkflowState {
  return { ...s, inflight: null, mode: 'manual', pauseRequested: false, awaiting };
}

export function roleOf(action: Action): Role {
  return action.kind === 'review' || action.kind === 'code_review' ? 'reviewer' : 'planner';
}

/** The effect that performs an action: an agent round, or agent-collab's own commit. */
export function effectFor(action: Action): Effect {
  switch (action.kind) {
    case 'commit_step':
      return {
        type: 'commit_step',
        step: action.step,
        summary: action.summary,
        allowSecrets: action.allowSecrets === true,
      };
    case 'run_tests':
      return { type: 'run_tests', step: action.step, attempt: action.attempt };
    case 'rollback_step':
      return { type: 'rollback_step', step: action.step };
    default:
      return { type: 'run_agent', role: roleOf(action), action };
  }
}

/** Puts the next agent round in motion (auto mode) or waits for the person's go (manual mode, or a pause). */
export function schedule(s: WorkflowState, action: Action, effects: Effect[] = []): TransitionResult {
  if (s.mode === 'auto' && !s.pauseRequested) {
    return { state: { ...s, inflight: action, awaiting: null }, effects: [...effects, effectFor(action)] };
  }
  const paused = s.pauseRequested;
  const state = waitForPerson(s, { kind: 'go', action });
  return {
    state,
    effects: paused
      ? [
          ...effects,
          {
            type: 'notify',
            notice: { kind: 'info', message: 'Paused: auto mode is off; the next round waits for your go.' },
          },
        ]
      : effects,
  };
}

/** Runs an action right away, whatever the mode: the person has just said so. */
export function runNow(s: WorkflowState, action: Action, effects: Effect[] = []): TransitionResult {
  return {
    state: { ...s, inflight: action, awaiting: null, pauseRequested: false },
    effects: [...effects, effectFor(action)],
  };
}

/**
 * Goes on with the same round's own follow-up (its tests, its commit, a re-ask): not a new round, so a pause the
 * person asked for stays pending until the next real round.
 */
export function proceed(s: WorkflowState, action: Action, effects: Effect[] = []): TransitionResult {
  return { state: { ...s, inflight: action, awaiting: null }, effects: [...effects, effectFor(action)] };
}

/** After the pause point: if a pause was requested while a round ran, the mode becomes manual. */
export function settle(s: WorkflowState): WorkflowState {
  return s.pauseRequested ? { ...s, mode: 'manual', pauseRequested: false } : s;
}
