// [limits] wait_for_reset / max_wait_minutes in the core (fixed dates, no clock): whether a usage limit parks the run
// and until when, and what the wake-up, "retry now", "stop" and a limit hit again and again do to the state.
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../src/core/events.js';
import { InvalidEventError, transition } from '../../../src/core/transition.js';
import type { Action, WorkflowState } from '../../../src/core/types.js';
import {
  describeRemaining,
  MAX_WAITS_IN_A_ROW,
  planLimitWait,
  remainingMs,
  WAKE_MARGIN_MS,
} from '../../../src/core/usage-limit.js';
import { configSchema } from '../../../src/persistence/config-schema.js';
import { OPTS, running } from '../../helpers/states.js';

const NOW = '2026-11-26T13:30:00.000Z';
const ON = { waitForReset: true, maxWaitMinutes: 360 };
const at = (iso: string, plusMs: number): string => new Date(Date.parse(iso) + plusMs).toISOString();

describe('planLimitWait: wait for the reset, or ask the person', () => {
  it('a reset within the max wait parks the run until the reset plus the margin', () => {
    const resetAt = '2026-11-26T14:05:00.000Z';
    expect(planLimitWait({ resetAt, now: NOW, waitsInARow: 0 }, ON)).toEqual({
      wait: true,
      until: '2026-11-26T14:05:30.000Z',
    });
    expect(WAKE_MARGIN_MS).toBe(30_000);
  });

  it('waiting off, no reset time or an unreadable one: the person is asked, saying why', () => {
    const resetAt = '2026-11-26T14:05:00.000Z';
    expect(planLimitWait({ resetAt, now: NOW, waitsInARow: 0 }, undefined)).toMatchObject({ wait: false });
    expect(planLimitWait({ resetAt, now: NOW, waitsInARow: 0 }, { ...ON, waitForReset: false })).toEqual({
      wait: false,
      why: '[limits] wait_for_reset is off',
    });
    expect(planLimitWait({ resetAt: undefined, now: NOW, waitsInARow: 0 }, ON)).toEqual({
      wait: false,
      why: 'the CLI gave no reset time',
    });
    expect(planLimitWait({ resetAt: 'soon', now: NOW, waitsInARow: 0 }, ON)).toMatchObject({ wait: false });
  });

  it('a reset further away than max_wait_minutes asks; exactly at it still waits; 0 means no limit', () => {
    // 360 min from now is the wake-up time itself (reset + margin).
    const edge = at(NOW, 360 * 60_000 - WAKE_MARGIN_MS);
    expect(planLimitWait({ resetAt: edge, now: NOW, waitsInARow: 0 }, ON)).toMatchObject({ wait: true });
    const over = at(edge, 1000);
    expect(planLimitWait({ resetAt: over, now: NOW, waitsInARow: 0 }, ON)).toEqual({
      wait: false,
      why: 'the reset is 6 h 01 min away, over [limits] max_wait_minutes (360)',
    });
    const weekly = at(NOW, 5 * 24 * 3_600_000);
    expect(planLimitWait({ resetAt: weekly, now: NOW, waitsInARow: 0 }, { ...ON, maxWaitMinutes: 0 })).toEqual({
      wait: true,
      until: at(weekly, WAKE_MARGIN_MS),
    });
  });

  it('a reset already past by more than the margin asks (a stale time must not loop); within the margin waits the rest', () => {
    expect(planLimitWait({ resetAt: at(NOW, -31_000), now: NOW, waitsInARow: 0 }, ON)).toMatchObject({
      wait: false,
      why: expect.stringContaining('has passed'),
    });
    expect(planLimitWait({ resetAt: at(NOW, -28_000), now: NOW, waitsInARow: 0 }, ON)).toEqual({
      wait: true,
      until: at(NOW, 2_000),
    });
  });

  it(`after ${MAX_WAITS_IN_A_ROW} waits in a row the person is asked`, () => {
    const resetAt = at(NOW, 60_000);
    const plan = (n: number) => planLimitWait({ resetAt, now: NOW, waitsInARow: n }, ON);
    expect(plan(MAX_WAITS_IN_A_ROW - 1)).toMatchObject({ wait: true });
    expect(plan(MAX_WAITS_IN_A_ROW)).toMatchObject({ wait: false, why: expect.stringContaining('in a row') });
  });

  it('the time left, and how a person reads it', () => {
    expect(remainingMs('2026-11-26T14:07:00.000Z', new Date(NOW))).toBe(37 * 60_000);
    expect(remainingMs(NOW, new Date(at(NOW, 5000)))).toBe(0);
    expect(describeRemaining(37 * 60_000)).toBe('37 min');
    expect(describeRemaining(36 * 60_000 + 1)).toBe('37 min');
    expect(describeRemaining(45_000)).toBe('45 s');
    expect(describeRemaining(125 * 60_000)).toBe('2 h 05 min');
  });
});

const REVIEW: Action = { kind: 'review' };
const limitHit = (resetAt: string | undefined, when = NOW): EngineEvent => ({
  type: 'agent_failed',
  role: 'reviewer',
  action: REVIEW,
  kind: 'usage_limit',
  message: 'usage limit reached',
  ...(resetAt && { resetAt }),
  at: when,
});
const reviewing = (extra: Partial<WorkflowState> = {}): WorkflowState =>
  running('REVIEW', REVIEW, { mode: 'auto', ...extra });
const withLimits = { ...OPTS, limits: ON };

describe('a usage limit in the state machine', () => {
  it('parks the run with the wake-up time, keeps auto mode, starts nothing; the wake-up runs the same round', () => {
    const parked = transition(reviewing(), limitHit('2026-11-26T14:05:00.000Z'), withLimits);
    expect(parked.state).toMatchObject({
      inflight: null,
      mode: 'auto',
      limitWaits: 1,
      awaiting: {
        kind: 'usage_limit',
        role: 'reviewer',
        action: REVIEW,
        resetAt: '2026-11-26T14:05:00.000Z',
        until: '2026-11-26T14:05:30.000Z',
      },
    });
    expect(parked.effects.map((e) => e.type)).toEqual(['log']);

    const woken = transition(parked.state, { type: 'limit_reset', until: '2026-11-26T14:05:30.000Z' }, withLimits);
    expect(woken.state).toMatchObject({ inflight: REVIEW, awaiting: null, mode: 'auto' });
    expect(woken.effects).toContainEqual({ type: 'run_agent', role: 'reviewer', action: REVIEW });
  });

  it('a stale wake-up (another reset time, or the run no longer parked) is refused', () => {
    const parked = transition(reviewing(), limitHit('2026-11-26T14:05:00.000Z'), withLimits).state;
    expect(() => transition(parked, { type: 'limit_reset', until: '2026-11-26T15:00:00.000Z' }, withLimits)).toThrow(
      InvalidEventError,
    );
    expect(() => transition(reviewing(), { type: 'limit_reset', until: NOW }, withLimits)).toThrow(InvalidEventError);
  });

  it('without [limits], with no reset time or beyond the max wait, the person is asked as today (manual mode)', () => {
    expect(transition(reviewing(), limitHit('2026-11-26T14:05:00.000Z'), OPTS).state).toMatchObject({
      mode: 'manual',
      awaiting: { kind: 'failure', failure: 'usage_limit', message: 'usage limit reached', action: REVIEW },
    });
    expect(transition(reviewing(), limitHit(undefined), withLimits).state.awaiting).toMatchObject({
      kind: 'failure',
      failure: 'usage_limit',
      message: 'usage limit reached (not waiting: the CLI gave no reset time)',
    });
    expect(transition(reviewing(), limitHit('2026-11-27T13:30:00.000Z'), withLimits).state.awaiting).toMatchObject({
      kind: 'failure',
      message: expect.stringContaining('over [limits] max_wait_minutes (360)'),
    });
  });

  it('retry now runs the round at once; stop goes back to goal refinement', () => {
    const parked = transition(reviewing(), limitHit('2026-11-26T14:05:00.000Z'), withLimits).state;
    const now = transition(parked, { type: 'decide', on: 'usage_limit', choice: 'retry' }, withLimits);
    expect(now.state).toMatchObject({ inflight: REVIEW, awaiting: null });
    expect(now.effects).toContainEqual({ type: 'run_agent', role: 'reviewer', action: REVIEW });
    const stopped = transition(parked, { type: 'decide', on: 'usage_limit', choice: 'stop' }, withLimits);
    expect(stopped.state).toMatchObject({ phase: 'REFINE_GOAL', awaiting: { kind: 'goal' }, inflight: null });
  });

  it('a limit hit again and again stops waiting after the cap; an answered round starts the count anew', () => {
    let s = reviewing();
    for (let i = 0; i < MAX_WAITS_IN_A_ROW; i++) {
      const reset = at(NOW, (i + 1) * 60_000);
      s = transition(s, limitHit(reset), withLimits).state;
      expect(s.awaiting?.kind).toBe('usage_limit');
      s = transition(s, { type: 'limit_reset', until: at(reset, WAKE_MARGIN_MS) }, withLimits).state;
    }
    const asked = transition(s, limitHit(at(NOW, 3_600_000)), withLimits).state;
    expect(asked.awaiting).toMatchObject({ kind: 'failure', message: expect.stringContaining('4 waits in a row') });

    const answered = transition(
      { ...s, limitWaits: 3 },
      { type: 'agent_done', role: 'reviewer', action: REVIEW, text: '[APPROVED]\nfine' },
      withLimits,
    ).state;
    expect(answered.limitWaits).toBe(0);
  });
});

describe('[limits] in the config', () => {
  it('defaults: no waiting, at most 360 minutes', () => {
    expect(configSchema.parse({}).limits).toEqual({ wait_for_reset: false, max_wait_minutes: 360 });
  });

  it('takes 0 (no limit) and refuses a negative, fractional or non-numeric max wait, and a non-boolean switch', () => {
    expect(configSchema.parse({ limits: { max_wait_minutes: 0 } }).limits.max_wait_minutes).toBe(0);
    for (const bad of [-1, 1.5, '60', 43_201])
      expect(configSchema.safeParse({ limits: { max_wait_minutes: bad } }).success, String(bad)).toBe(false);
    expect(configSchema.safeParse({ limits: { wait_for_reset: 'yes' } }).success).toBe(false);
    expect(configSchema.safeParse({ limits: { wait_forever: true } }).success).toBe(false);
  });
});
