// The reset timer (fake timers): one timer for the parked state's wake-up time, a wait longer than setTimeout can
// take (~24.8 days) armed again in pieces, never woken twice for the same time, cleared when the run waits for
// something else.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WorkflowState } from '../../../src/core/types.js';
import { ResetTimer } from '../../../src/engine/reset-timer.js';
import { stateIn } from '../../helpers/states.js';

const NOW = new Date('2026-11-26T13:00:00.000Z');
const DAY = 86_400_000;

function parkedUntil(until: string): WorkflowState {
  return stateIn('REVIEW', {
    awaiting: {
      kind: 'usage_limit',
      role: 'reviewer',
      message: 'weekly limit reached',
      action: { kind: 'review' },
      resetAt: new Date(Date.parse(until) - 30_000).toISOString(),
      until,
    },
  });
}

afterEach(() => vi.useRealTimers());

describe('the reset timer', () => {
  it('wakes once at a wake-up time 30 days ahead, armed again in pieces; a second sync does not add a timer', () => {
    vi.useFakeTimers({ now: NOW });
    const woken: string[] = [];
    const timer = new ResetTimer(
      () => new Date(),
      (until) => woken.push(until),
    );
    const until = new Date(NOW.getTime() + 30 * DAY).toISOString();
    timer.sync(parkedUntil(until));
    timer.sync(parkedUntil(until));
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(25 * DAY);
    expect(woken).toEqual([]);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(5 * DAY - 1);
    expect(woken).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(woken).toEqual([until]);
    // The state still waits until the wake-up is applied: syncing it again does not wake it a second time.
    timer.sync(parkedUntil(until));
    vi.advanceTimersByTime(DAY);
    expect(woken).toEqual([until]);
  });

  it('a state that waits for something else clears it', () => {
    vi.useFakeTimers({ now: NOW });
    const woken: string[] = [];
    const timer = new ResetTimer(
      () => new Date(),
      (until) => woken.push(until),
    );
    timer.sync(parkedUntil(new Date(NOW.getTime() + 60_000).toISOString()));
    timer.sync(stateIn('REFINE_GOAL', { awaiting: { kind: 'goal' } }));
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(120_000);
    expect(woken).toEqual([]);
  });
});
