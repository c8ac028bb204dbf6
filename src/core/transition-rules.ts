// What every transition shares: its options and result, the checks that reject an event the state does not allow,
// and the two outcomes many events end in (a failure that waits for the person, a stop back to goal refinement).
import { waitForPerson } from './approval.js';
import type { BudgetCaps } from './budget.js';
import type { Effect, EngineEvent } from './events.js';
import type { ExecutionOptions } from './execution.js';
import type { LimitOptions } from './usage-limit.js';
import {
  PHASES,
  type Action,
  type Awaiting,
  type CodeReviewMode,
  type Phase,
  type Role,
  type WorkflowState,
} from './types.js';

export type FailureKindOrEngine = Extract<Awaiting, { kind: 'failure' }>['failure'];

export interface TransitionOptions {
  /** Base iteration cap (`workflow.max_iterations`). */
  maxIterations: number;
  /** `workflow.auto_approve`: in auto mode, an approved plan goes to execution without the person's go. */
  autoApprove: boolean;
  /** `[budget]` caps (0 = no cap); missing: no budgets. */
  budget?: BudgetCaps;
  /** Execution settings; defaults: 3 retries, ask the planner for a test command, 3 denials per step. */
  execution?: Partial<ExecutionOptions>;
  /** `[review] code` and `max_code_rounds`; without it the code is not reviewed. */
  codeReview?: { mode: CodeReviewMode; maxRounds: number };
  /** `[limits]`: whether a usage limit with a known reset parks the run until then; without it the person is asked. */
  limits?: LimitOptions;
}

export const EXECUTION_DEFAULTS: ExecutionOptions = { maxRetries: 3, testFallbackToAgent: true, maxDenials: 3 };

export function execOpts(opts: TransitionOptions): ExecutionOptions {
  return { ...EXECUTION_DEFAULTS, ...opts.execution };
}

export interface TransitionResult {
  state: WorkflowState;
  effects: Effect[];
}

/** An event that is not allowed in the current phase. The state is unchanged. */
export class InvalidEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidEventError';
  }
}

export const TERMINAL: ReadonlySet<Phase> = new Set(['DONE', 'CANCELLED']);
/** Every phase between the start and the end of a run. */
export const RUNNING: ReadonlySet<Phase> = new Set(PHASES.filter((p) => p !== 'INIT' && !TERMINAL.has(p)));

export function isTerminal(phase: Phase): boolean {
  return TERMINAL.has(phase);
}

/** A run nobody stated a goal for: nothing in it to resume (the TUI left at once, `n` then quit). */
export function isEmptyRun(s: WorkflowState): boolean {
  return (s.phase === 'INIT' || s.phase === 'REFINE_GOAL') && !s.goal.trim() && s.steps.length === 0;
}

export function reject(state: WorkflowState, event: EngineEvent, why: string): never {
  throw new InvalidEventError(`"${event.type}" is not allowed in phase ${state.phase}: ${why}`);
}

export function requireIdle(s: WorkflowState, e: EngineEvent): void {
  if (s.inflight) reject(s, e, `an agent round (${s.inflight.kind}) is still running; wait for it, or stop it`);
}

export function requireAwaiting<K extends NonNullable<WorkflowState['awaiting']>['kind']>(
  s: WorkflowState,
  e: EngineEvent,
  kind: K,
): Extract<NonNullable<WorkflowState['awaiting']>, { kind: K }> {
  requireIdle(s, e);
  if (s.awaiting?.kind !== kind)
    reject(
      s,
      e,
      s.awaiting ? `the workflow is waiting for ${s.awaiting.kind}, not ${kind}` : 'nothing is waiting for it',
    );
  return s.awaiting as Extract<NonNullable<WorkflowState['awaiting']>, { kind: K }>;
}

export function requireInflight(s: WorkflowState, e: Extract<EngineEvent, { action: Action }>): void {
  if (!s.inflight || s.inflight.kind !== e.action.kind) {
    reject(s, e, `no ${e.action.kind} round is running (stale result ignored)`);
  }
}

export function failed(
  s: WorkflowState,
  role: Role | null,
  action: Action | null,
  failure: FailureKindOrEngine,
  message: string,
): TransitionResult {
  return {
    state: waitForPerson(s, { kind: 'failure', role, failure, message, action }),
    effects: [{ type: 'log', title: `${role ?? 'engine'} failed (${failure})`, lines: [message] }],
  };
}

export function stopToGoal(s: WorkflowState, why: string): TransitionResult {
  return {
    state: {
      ...s,
      phase: 'REFINE_GOAL',
      // No review loop runs in goal refinement: the next goal_ready starts one from 0 (the screen said `iter 5/6`).
      iteration: 0,
      inflight: null,
      awaiting: { kind: 'goal' },
      mode: 'manual',
      pauseRequested: false,
      currentStep: null,
      stepRun: null,
      pendingCommand: null,
      unclearCount: 0,
    },
    effects: [
      { type: 'stop_agents' },
      { type: 'set_plan_status', status: 'draft' },
      { type: 'log', title: why },
      // A stop during goal refinement ends nothing: no plan was under way.
      ...(s.phase === 'REFINE_GOAL'
        ? []
        : [{ type: 'report', ending: 'stopped', reason: why, step: s.currentStep } as const]),
    ],
  };
}
