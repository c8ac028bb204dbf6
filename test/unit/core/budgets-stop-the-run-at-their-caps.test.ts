// Budget arithmetic (core/budget.ts) and where the state machine stops a run at a cap (core/budget-guard.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  budgetLine,
  budgetsToNotice,
  capsOf,
  msToNextMinutesMark,
  overBudget,
  RoundClock,
  spentOf,
  type BudgetCaps,
} from '../../../src/core/budget.js';
import { transition, type TransitionOptions } from '../../../src/core/transition.js';
import type { EngineEvent } from '../../../src/core/events.js';
import type { WorkflowState } from '../../../src/core/types.js';
import { running, stateIn } from '../../helpers/states.js';

const CAPS: BudgetCaps = { tokens: 1000, cost: 2, minutes: 10 };
const OPTS: TransitionOptions = { maxIterations: 5, autoApprove: false, budget: CAPS };

function withUsage(s: WorkflowState, tokens: number, costUsd = 0): WorkflowState {
  return { ...s, usage: { ...s.usage, inputTokens: tokens, outputTokens: 0, costUsd } };
}

function usage(tokens: number, costUsd = 0): EngineEvent {
  return {
    type: 'usage',
    role: 'reviewer',
    inputTokens: tokens,
    outputTokens: 0,
    cachedTokens: 0,
    costUsd,
    durationMs: 0,
  };
}

afterEach(() => vi.useRealTimers());

describe('budget arithmetic', () => {
  it('counts input + output tokens, the reported cost and the agent time in minutes', () => {
    const s = { ...withUsage(stateIn('REVIEW'), 300, 0.5), budget: { workedMs: 90_000, raises: {}, noticedAt: {} } };
    expect(spentOf({ ...s, usage: { ...s.usage, outputTokens: 200 } })).toEqual({
      tokens: 500,
      cost: 0.5,
      minutes: 1.5,
    });
    expect(spentOf(s, 30_000).minutes).toBe(2);
  });

  it('a cap of 0 is no cap; a cap is reached at exactly its value', () => {
    const s = withUsage(stateIn('REVIEW'), 1000);
    expect(overBudget(s, { tokens: 0, cost: 0, minutes: 0 })).toBeNull();
    expect(overBudget(withUsage(s, 999), CAPS)).toBeNull();
    expect(overBudget(s, CAPS)).toEqual({ budget: 'tokens', spent: 1000, cap: 1000 });
    expect(overBudget(s, undefined)).toBeNull();
  });

  it('each raise adds the configured cap once more', () => {
    const s: WorkflowState = {
      ...withUsage(stateIn('REVIEW'), 1500),
      budget: { workedMs: 0, raises: { tokens: 1 }, noticedAt: {} },
    };
    expect(capsOf(s, CAPS)).toEqual({ tokens: 2000, cost: 2, minutes: 10 });
    expect(overBudget(s, CAPS)).toBeNull();
  });

  it('the 80% notice is due once per cap in force', () => {
    const s = withUsage(stateIn('REVIEW'), 800);
    expect(budgetsToNotice(s, CAPS)).toEqual([{ budget: 'tokens', spent: 800, cap: 1000 }]);
    expect(budgetsToNotice(withUsage(s, 799), CAPS)).toEqual([]);
    const noticed = { ...s, budget: { workedMs: 0, raises: {}, noticedAt: { tokens: 1000 } } };
    expect(budgetsToNotice(noticed, CAPS)).toEqual([]);
  });

  it('the status line shows every capped budget as spent / cap', () => {
    const s = { ...withUsage(stateIn('REVIEW'), 1234, 0.5), budget: { workedMs: 150_000, raises: {}, noticedAt: {} } };
    expect(budgetLine(s, CAPS)).toEqual(['1,234 / 1,000 tokens', '$0.50 / $2.00', '2.5 / 10 min']);
    expect(budgetLine(s, { tokens: 0, cost: 0, minutes: 0 })).toEqual([]);
  });
});

describe('agent time for the minutes budget', () => {
  it('a round clock counts every millisecond once, in laps (fake timers)', () => {
    vi.useFakeTimers();
    const clock = new RoundClock(() => Date.now());
    vi.advanceTimersByTime(45_000);
    expect(clock.pending()).toBe(45_000);
    expect(clock.lap()).toBe(45_000);
    vi.advanceTimersByTime(15_000);
    expect(clock.lap()).toBe(15_000);
    expect(clock.lap()).toBe(0);
  });

  it('the next minutes mark is 80% of the cap, then the cap, then none', () => {
    const s = stateIn('REVIEW');
    const at = (workedMs: number, noticed?: number): WorkflowState => ({
      ...s,
      budget: { workedMs, raises: {}, noticedAt: noticed === undefined ? {} : { minutes: noticed } },
    });
    expect(msToNextMinutesMark(at(0), CAPS)).toBe(480_000);
    expect(msToNextMinutesMark(at(60_000), CAPS, 60_000)).toBe(360_000);
    expect(msToNextMinutesMark(at(480_000, 10), CAPS)).toBe(120_000);
    expect(msToNextMinutesMark(at(600_000, 10), CAPS)).toBeNull();
    expect(msToNextMinutesMark(at(0), { ...CAPS, minutes: 0 })).toBeNull();
  });

  it('agent time reported while a round streams stops it at the cap; at the round end it stops the next one', () => {
    const s: WorkflowState = {
      ...running('REVIEW', { kind: 'review' }, { mode: 'auto' }),
      budget: { workedMs: 540_000, raises: {}, noticedAt: { minutes: 10 } },
    };
    const streaming = transition(s, { type: 'worked', ms: 60_000 }, OPTS);
    expect(streaming.state.awaiting).toMatchObject({ kind: 'budget', budget: 'minutes', action: { kind: 'review' } });
    expect(streaming.state.inflight).toBeNull();
    expect(streaming.effects.map((e) => e.type)).toContain('stop_agents');

    const ended = transition(s, { type: 'worked', ms: 60_000, roundEnded: true }, OPTS);
    expect(ended.state.inflight).toEqual({ kind: 'review' });
    expect(ended.state.budget?.workedMs).toBe(600_000);
  });
});

describe('the run stops at a cap', () => {
  it('before the next round: the round is not started and waits with the budget question', () => {
    const s = withUsage(running('REVIEW', { kind: 'review' }, { mode: 'auto' }), 1000);
    const r = transition(
      s,
      { type: 'agent_done', role: 'reviewer', action: { kind: 'review' }, text: '[CHANGES_REQUIRED]\n1. x' },
      OPTS,
    );
    expect(r.effects.find((e) => e.type === 'run_agent')).toBeUndefined();
    expect(r.state.inflight).toBeNull();
    expect(r.state.mode).toBe('manual');
    expect(r.state.awaiting).toEqual({
      kind: 'budget',
      budget: 'tokens',
      spent: 1000,
      cap: 1000,
      action: { kind: 'respond' },
    });
    // The verdict's own file effects still happen: the round that ended is not lost.
    expect(r.effects.map((e) => e.type)).toContain('write_comments');
  });

  it('while a round streams: the usage that reaches the cap stops the round', () => {
    const s = withUsage(running('EXECUTE', { kind: 'execute_step', step: 1 }, { mode: 'auto' }), 900);
    const r = transition(s, usage(150), OPTS);
    expect(r.effects.map((e) => e.type)).toEqual(['stop_agents', 'log', 'notify']);
    expect(r.state.awaiting).toMatchObject({ kind: 'budget', budget: 'tokens', spent: 1050, cap: 1000 });
    expect(r.state.inflight).toBeNull();
  });

  it('gives the 80% notice once, then not again at the same cap', () => {
    const s = running('REVIEW', { kind: 'review' }, { mode: 'auto' });
    const first = transition(s, usage(800), OPTS);
    expect(first.effects).toEqual([
      {
        type: 'notify',
        notice: expect.objectContaining({ kind: 'budget', budget: 'tokens', reached: false, spent: 800, cap: 1000 }),
      },
    ]);
    expect(first.state.inflight).toEqual({ kind: 'review' });
    expect(transition(first.state, usage(10), OPTS).effects).toEqual([]);
  });

  it('raise: the cap grows by its configured amount and the stopped round runs', () => {
    const s: WorkflowState = {
      ...withUsage(stateIn('REVIEW'), 1000),
      awaiting: { kind: 'budget', budget: 'tokens', spent: 1000, cap: 1000, action: { kind: 'review' } },
    };
    const r = transition(s, { type: 'decide', on: 'budget', choice: 'raise' }, OPTS);
    expect(r.state.inflight).toEqual({ kind: 'review' });
    expect(r.effects).toContainEqual({ type: 'run_agent', role: 'reviewer', action: { kind: 'review' } });
    expect(capsOf(r.state, CAPS).tokens).toBe(2000);
  });

  it('stop: back to goal refinement', () => {
    const s: WorkflowState = {
      ...withUsage(stateIn('REVIEW'), 1000),
      awaiting: { kind: 'budget', budget: 'tokens', spent: 1000, cap: 1000, action: { kind: 'review' } },
    };
    const r = transition(s, { type: 'decide', on: 'budget', choice: 'stop' }, OPTS);
    expect(r.state.phase).toBe('REFINE_GOAL');
    expect(r.effects.find((e) => e.type === 'run_agent')).toBeUndefined();
  });

  it('on resume, a cap raised in the config lets the round go on; an unchanged cap keeps it waiting', () => {
    const s: WorkflowState = {
      ...withUsage(stateIn('REVIEW', { mode: 'auto' }), 1000),
      awaiting: { kind: 'budget', budget: 'tokens', spent: 1000, cap: 1000, action: { kind: 'review' } },
    };
    const same = transition(s, { type: 'budget_check' }, OPTS);
    expect(same.state).toBe(s);
    const raised = transition(s, { type: 'budget_check' }, { ...OPTS, budget: { ...CAPS, tokens: 5000 } });
    expect(raised.state.awaiting).toBeNull();
    expect(raised.effects).toContainEqual({ type: 'run_agent', role: 'reviewer', action: { kind: 'review' } });
  });

  it('a go at a waiting round does not start it past a cap', () => {
    const s: WorkflowState = {
      ...withUsage(stateIn('REVIEW'), 2000),
      awaiting: { kind: 'go', action: { kind: 'review' } },
    };
    const r = transition(s, { type: 'go' }, OPTS);
    expect(r.state.awaiting).toMatchObject({ kind: 'budget', budget: 'tokens' });
    expect(r.effects.find((e) => e.type === 'run_agent')).toBeUndefined();
  });
});
