import { describe, expect, it } from 'vitest';
import { transition } from '../../../src/core/transition.js';
import { OPTS, running, stateIn } from '../../helpers/states.js';

const planDone = {
  type: 'agent_done',
  role: 'planner',
  action: { kind: 'write_plan' },
  text: '# Task: x\n## Steps\n1. [ ] a',
} as const;

describe('approval controller', () => {
  it('manual mode: the next round waits for the person’s go, then runs', () => {
    const r = transition(running('WRITE_PLAN', { kind: 'write_plan' }), planDone, OPTS);
    expect(r.state.awaiting).toEqual({ kind: 'go', action: { kind: 'review' } });
    expect(r.state.inflight).toBeNull();
    expect(r.effects.some((e) => e.type === 'run_agent')).toBe(false);
    const go = transition(r.state, { type: 'go' }, OPTS);
    expect(go.state.inflight).toEqual({ kind: 'review' });
    expect(go.effects).toContainEqual({ type: 'run_agent', role: 'reviewer', action: { kind: 'review' } });
  });

  it('auto mode: the next round starts at once', () => {
    const r = transition(running('WRITE_PLAN', { kind: 'write_plan' }, { mode: 'auto' }), planDone, OPTS);
    expect(r.state.awaiting).toBeNull();
    expect(r.effects).toContainEqual({ type: 'run_agent', role: 'reviewer', action: { kind: 'review' } });
  });

  it('auto mode stops at approval unless auto_approve is set', () => {
    const approved = stateIn('APPROVED', { mode: 'auto' });
    const steps = [{ n: 1, title: 'a', done: false }];
    const held = transition(approved, { type: 'steps_loaded', steps }, OPTS);
    expect(held.state.awaiting).toEqual({ kind: 'go', action: { kind: 'execute_step', step: 1 } });
    expect(held.state.phase).toBe('APPROVED');
    const auto = transition(approved, { type: 'steps_loaded', steps }, { ...OPTS, autoApprove: true });
    expect(auto.state.phase).toBe('EXECUTE');
    expect(auto.effects.map((e) => e.type)).toContain('run_agent');
  });

  it('switching to auto while a go is awaited runs that round', () => {
    const waiting = stateIn('REVIEW', { awaiting: { kind: 'go', action: { kind: 'review' } } });
    const r = transition(waiting, { type: 'set_mode', mode: 'auto' }, OPTS);
    expect(r.state.mode).toBe('auto');
    expect(r.state.inflight).toEqual({ kind: 'review' });
  });

  it('pause during a round: PAUSING, the round finishes and writes its files, then manual mode (never mid-write)', () => {
    const s = running('WRITE_PLAN', { kind: 'write_plan' }, { mode: 'auto' });
    const pausing = transition(s, { type: 'pause' }, OPTS);
    expect(pausing.state.pauseRequested).toBe(true);
    expect(pausing.state.mode).toBe('auto');
    expect(pausing.effects).toEqual([]); // nothing is interrupted
    const after = transition(pausing.state, planDone, OPTS);
    expect(after.effects.map((e) => e.type)).toContain('write_plan'); // the round's output is kept
    expect(after.effects.some((e) => e.type === 'run_agent')).toBe(false);
    expect(after.state.mode).toBe('manual');
    expect(after.state.pauseRequested).toBe(false);
    expect(after.state.awaiting).toEqual({ kind: 'go', action: { kind: 'review' } });
  });

  it('pause with nothing running: manual mode at once', () => {
    const r = transition(
      stateIn('REVIEW', {
        mode: 'auto',
        awaiting: { kind: 'question', role: 'reviewer', text: '?', action: { kind: 'review' } },
      }),
      { type: 'pause' },
      OPTS,
    );
    expect(r.state.mode).toBe('manual');
  });

  it('stop: back to REFINE_GOAL, agents stopped, the plan kept (marked draft, not deleted)', () => {
    const r = transition(running('REVIEW', { kind: 'review' }, { mode: 'auto', iteration: 2 }), { type: 'stop' }, OPTS);
    expect(r.state.phase).toBe('REFINE_GOAL');
    expect(r.state.awaiting).toEqual({ kind: 'goal' });
    expect(r.state.inflight).toBeNull();
    expect(r.effects.map((e) => e.type)).toEqual(['stop_agents', 'set_plan_status', 'log', 'report']);
    expect(r.effects.some((e) => e.type === 'archive')).toBe(false);
    // a new plan round after stop starts counting iterations again
    const again = transition(r.state, { type: 'goal_ready' }, OPTS);
    expect(again.state.iteration).toBe(0);
  });

  it('cancel: CANCELLED, agents stopped, the run archived', () => {
    const r = transition(running('EXECUTE', { kind: 'execute_step', step: 1 }), { type: 'cancel' }, OPTS);
    expect(r.state.phase).toBe('CANCELLED');
    expect(r.effects.map((e) => e.type)).toEqual(['stop_agents', 'log', 'report', 'archive']);
  });

  it('an agent failure waits for the person; go retries the same round', () => {
    const r = transition(
      running('REVIEW', { kind: 'review' }, { mode: 'auto' }),
      { type: 'agent_failed', role: 'reviewer', action: { kind: 'review' }, kind: 'infra', message: 'HTTP 500' },
      OPTS,
    );
    expect(r.state.awaiting).toMatchObject({
      kind: 'failure',
      role: 'reviewer',
      failure: 'infra',
      message: 'HTTP 500',
    });
    expect(r.state.mode).toBe('manual');
    const retry = transition(r.state, { type: 'go' }, OPTS);
    expect(retry.effects).toContainEqual({ type: 'run_agent', role: 'reviewer', action: { kind: 'review' } });
  });

  it('a question waits for the answer, which goes back to the same round', () => {
    const r = transition(
      running('WRITE_PLAN', { kind: 'write_plan' }),
      { type: 'agent_question', role: 'planner', action: { kind: 'write_plan' }, text: 'Which database?' },
      OPTS,
    );
    expect(r.state.awaiting).toEqual({
      kind: 'question',
      role: 'planner',
      text: 'Which database?',
      action: { kind: 'write_plan' },
    });
    const a = transition(r.state, { type: 'answer', text: 'Postgres' }, OPTS);
    expect(a.effects).toContainEqual({
      type: 'run_agent',
      role: 'planner',
      action: { kind: 'write_plan', answer: 'Postgres' },
    });
  });

  it('a stale result after a stop is rejected, not applied', () => {
    const stopped = transition(running('REVIEW', { kind: 'review' }), { type: 'stop' }, OPTS).state;
    expect(() =>
      transition(
        stopped,
        { type: 'agent_done', role: 'reviewer', action: { kind: 'review' }, text: '[APPROVED]' },
        OPTS,
      ),
    ).toThrow(/stale result/);
  });
});
