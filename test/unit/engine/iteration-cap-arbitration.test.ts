import { describe, expect, it } from 'vitest';
import { transition } from '../../../src/core/transition.js';
import type { WorkflowState } from '../../../src/core/types.js';
import { OPTS, running } from '../../helpers/states.js';

const changes = {
  type: 'agent_done',
  role: 'reviewer',
  action: { kind: 'review' },
  text: '[CHANGES_REQUIRED]\n1. no',
} as const;

function atCap(): WorkflowState {
  const r = transition(
    running('REVIEW', { kind: 'review' }, { iteration: 4, maxIterations: 5, mode: 'auto' }),
    changes,
    OPTS,
  );
  return r.state;
}

describe('iteration cap', () => {
  it('the 5th CHANGES_REQUIRED raises an arbitration request instead of another round', () => {
    const s = atCap();
    expect(s.iteration).toBe(5);
    expect(s.awaiting).toEqual({ kind: 'arbitration', iteration: 5 });
    expect(s.inflight).toBeNull();
  });

  it('below the cap the loop goes on', () => {
    const r = transition(
      running('REVIEW', { kind: 'review' }, { iteration: 3, maxIterations: 5, mode: 'auto' }),
      changes,
      OPTS,
    );
    expect(r.state.phase).toBe('RESPOND');
    expect(r.state.awaiting).toBeNull();
  });

  it('force approve → APPROVED and the steps are loaded', () => {
    const r = transition(atCap(), { type: 'decide', on: 'arbitration', choice: 'approve' }, OPTS);
    expect(r.state.phase).toBe('APPROVED');
    expect(r.effects.map((e) => e.type)).toEqual(['set_plan_status', 'log', 'load_steps']);
  });

  it('continue N more rounds → RESPOND with the cap raised by N', () => {
    const r = transition(atCap(), { type: 'decide', on: 'arbitration', choice: 'continue', rounds: 2 }, OPTS);
    expect(r.state.phase).toBe('RESPOND');
    expect(r.state.maxIterations).toBe(7);
    expect(r.effects.map((e) => e.type)).toContain('run_agent');
    expect(() =>
      transition(atCap(), { type: 'decide', on: 'arbitration', choice: 'continue', rounds: 0 }, OPTS),
    ).toThrow(/whole number of rounds/);
  });

  it('edit manually → waits for the edit, then the edited plan goes to review', () => {
    const editing = transition(atCap(), { type: 'decide', on: 'arbitration', choice: 'edit' }, OPTS).state;
    expect(editing.awaiting).toEqual({ kind: 'manual_edit' });
    const r = transition(editing, { type: 'decide', on: 'manual_edit', choice: 'edited' }, OPTS);
    expect(r.state.phase).toBe('REVIEW');
    expect(r.state.maxIterations).toBe(6);
    expect(r.effects).toContainEqual({ type: 'run_agent', role: 'reviewer', action: { kind: 'review' } });
  });

  it('cancel → CANCELLED and archived', () => {
    const r = transition(atCap(), { type: 'decide', on: 'arbitration', choice: 'cancel' }, OPTS);
    expect(r.state.phase).toBe('CANCELLED');
    expect(r.effects.map((e) => e.type)).toContain('archive');
  });
});

describe('unreadable reviewer answers', () => {
  const unclear = { type: 'agent_done', role: 'reviewer', action: { kind: 'review' }, text: '' } as const;

  it('are re-asked once, then shown to the person — never approval, no iteration used', () => {
    const first = transition(running('REVIEW', { kind: 'review' }), unclear, OPTS);
    expect(first.state.iteration).toBe(0);
    expect(first.effects).toContainEqual({
      type: 'run_agent',
      role: 'reviewer',
      action: { kind: 'review', reask: true },
    });
    const second = transition(
      first.state,
      { ...unclear, action: { kind: 'review', reask: true }, text: 'APPROVED' },
      OPTS,
    );
    expect(second.state.phase).toBe('REVIEW');
    expect(second.state.iteration).toBe(0);
    expect(second.state.awaiting).toMatchObject({ kind: 'unclear_verdict', text: 'APPROVED' });
    expect(second.effects.some((e) => e.type === 'write_comments')).toBe(false);
  });

  it('the person can treat it as changes required', () => {
    const shown = transition(running('REVIEW', { kind: 'review' }, { unclearCount: 1 }), unclear, OPTS).state;
    const r = transition(shown, { type: 'decide', on: 'unclear_verdict', choice: 'changes' }, OPTS);
    expect(r.state.iteration).toBe(1);
    expect(r.state.phase).toBe('RESPOND');
    expect(r.effects[0]).toMatchObject({ type: 'write_comments', verdict: 'CHANGES_REQUIRED' });
  });
});
