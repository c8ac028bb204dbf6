import type { Action, Phase, WorkflowState } from '../../src/core/types.js';
import { newState } from '../../src/persistence/state-store.js';

export const OPTS = { maxIterations: 5, autoApprove: false };

/** A state in `phase`, with whatever else the test needs. */
export function stateIn(phase: Phase, extra: Partial<WorkflowState> = {}): WorkflowState {
  const base = newState({
    runId: 'run-1',
    goal: 'add a flag',
    mode: 'manual',
    maxIterations: 5,
    now: new Date('2026-01-01T00:00:00Z'),
  });
  return { ...base, phase, ...extra };
}

/** A state with `action` under way. */
export function running(phase: Phase, action: Action, extra: Partial<WorkflowState> = {}): WorkflowState {
  return stateIn(phase, { inflight: action, ...extra });
}
