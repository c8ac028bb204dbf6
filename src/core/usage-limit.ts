// Usage limits, bounded ([limits] wait_for_reset, max_wait_minutes): a round stopped by a usage limit whose reset
// time is known parks the run until the reset (plus a margin for clock skew) and then runs the same round again by
// itself; with no reset time, a reset too far away, the waiting turned off or a limit hit again and again, the
// person is asked as for any failure. The clock is the caller's: every time here is given in.
import type { EngineEvent } from './events.js';
import {
  failed,
  requireAwaiting,
  reject,
  stopToGoal,
  type TransitionOptions,
  type TransitionResult,
} from './transition-rules.js';
import { runNow } from './approval.js';
import type { Awaiting, WorkflowState } from './types.js';

/** `[limits]` as the core uses it. */
export interface LimitOptions {
  waitForReset: boolean;
  /** The longest wait the run parks for, in minutes; 0 = no limit. */
  maxWaitMinutes: number;
}

/** Woken this long after the reset time the CLI gave: its clock and ours may differ by some seconds. */
export const WAKE_MARGIN_MS = 30_000;
/**
 * Parks in a row (no round answered in between) after which the person is asked: a provider that keeps saying "soon"
 * while the limit holds must not keep the run looping by itself.
 */
export const MAX_WAITS_IN_A_ROW = 4;

export type LimitWait = Extract<Awaiting, { kind: 'usage_limit' }>;

export type LimitPlan = { wait: true; until: string } | { wait: false; why: string };

const MS_PER_MINUTE = 60_000;

/** Whether a usage limit parks the run (and until when), or why the person is asked instead. */
export function planLimitWait(
  input: { resetAt: string | undefined; now: string; waitsInARow: number },
  opts: LimitOptions | undefined,
): LimitPlan {
  if (!opts?.waitForReset) return { wait: false, why: '[limits] wait_for_reset is off' };
  const reset = input.resetAt ? Date.parse(input.resetAt) : Number.NaN;
  if (Number.isNaN(reset)) return { wait: false, why: 'the CLI gave no reset time' };
  const wake = reset + WAKE_MARGIN_MS;
  const left = wake - Date.parse(input.now);
  if (left <= 0) return { wait: false, why: `the reset time it gave (${input.resetAt}) has passed` };
  if (opts.maxWaitMinutes > 0 && left > opts.maxWaitMinutes * MS_PER_MINUTE)
    return {
      wait: false,
      why: `the reset is ${describeRemaining(left)} away, over [limits] max_wait_minutes (${opts.maxWaitMinutes})`,
    };
  if (input.waitsInARow >= MAX_WAITS_IN_A_ROW)
    return { wait: false, why: `the limit was hit again after ${input.waitsInARow} waits in a row` };
  return { wait: true, until: new Date(wake).toISOString() };
}

/** Milliseconds from `now` until `until` (0 once it has passed). */
export function remainingMs(until: string, now: Date): number {
  return Math.max(0, Date.parse(until) - now.getTime());
}

/** "45 s", "37 min", "2 h 05 min": a wait as a person reads it (minutes rounded up, so 0 min never shows). */
export function describeRemaining(ms: number): string {
  if (ms < MS_PER_MINUTE) return `${Math.max(0, Math.ceil(ms / 1000))} s`;
  const minutes = Math.ceil(ms / MS_PER_MINUTE);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** A round failed with a usage limit: park the run until the reset, or ask the person as for any failure. */
export function onUsageLimit(
  s: WorkflowState,
  e: Extract<EngineEvent, { type: 'agent_failed' }>,
  opts: TransitionOptions,
): TransitionResult {
  const waitsInARow = s.limitWaits ?? 0;
  const plan = planLimitWait({ resetAt: e.resetAt, now: e.at ?? s.updatedAt, waitsInARow }, opts.limits);
  if (!plan.wait) {
    const message = opts.limits?.waitForReset ? `${e.message} (not waiting: ${plan.why})` : e.message;
    return failed({ ...s, limitWaits: 0 }, e.role, e.action, 'usage_limit', message);
  }
  const awaiting: LimitWait = {
    kind: 'usage_limit',
    role: e.role,
    message: e.message,
    action: e.action,
    resetAt: e.resetAt as string,
    until: plan.until,
  };
  // Not the person's wait: the mode stays as it is, so an auto run goes on by itself after the reset.
  return {
    state: { ...s, inflight: null, awaiting, limitWaits: waitsInARow + 1 },
    effects: [
      {
        type: 'log',
        title: `${e.role} hit a usage limit; waiting until ${plan.until}`,
        lines: [e.message, `the ${e.action.kind} round runs again then ([limits] wait_for_reset)`],
      },
    ],
  };
}

/** The wake-up time of a parked run came: the round that hit the limit runs again (a stale wake-up is ignored). */
export function onLimitReset(s: WorkflowState, e: Extract<EngineEvent, { type: 'limit_reset' }>): TransitionResult {
  const w = requireAwaiting(s, e, 'usage_limit');
  if (w.until !== e.until) reject(s, e, 'the run waits for another reset time');
  return runNow(s, w.action, [{ type: 'log', title: `Usage limit reset; the ${w.action.kind} round runs again` }]);
}

/** The person's choice while the run waits for the reset: run the round now, or stop. */
export function onLimitChoice(s: WorkflowState, choice: 'retry' | 'stop', w: LimitWait): TransitionResult {
  if (choice === 'stop')
    return stopToGoal(
      { ...s, limitWaits: 0 },
      `Stopped while waiting for a usage limit's reset; back to goal refinement (plan kept)`,
    );
  return runNow(s, w.action, [
    { type: 'log', title: `Person retried the ${w.action.kind} round before the usage limit's reset` },
  ]);
}
