// Esc while an agent works (issue 20): the round stops, the phase stays, and the person runs it again — as it was,
// with a message added to its prompt — or stops the phase. agent-collab's own work cannot be interrupted.
import { describe, expect, it } from 'vitest';
import { personsNote } from '../../../src/core/interrupt.js';
import { transition } from '../../../src/core/transition.js';
import type { WorkflowState } from '../../../src/core/types.js';
import { buildTurnPrompt } from '../../../src/engine/turn-prompts.js';
import { OPTS, running } from '../../helpers/states.js';

const interrupted = (s: WorkflowState) => transition(s, { type: 'interrupt' }, OPTS);

describe('interrupting a round', () => {
  it('stops the agents and waits for the person, in the same phase, with the round to run again', () => {
    const r = interrupted(running('REVIEW', { kind: 'review' }, { mode: 'auto', iteration: 1 }));
    expect(r.state.phase).toBe('REVIEW');
    expect(r.state.inflight).toBeNull();
    expect(r.state.iteration).toBe(1);
    expect(r.state.mode).toBe('auto');
    expect(r.state.awaiting).toEqual({ kind: 'interrupted', role: 'reviewer', action: { kind: 'review' } });
    expect(r.effects[0]).toEqual({ type: 'stop_agents' });
  });

  it('Enter (retry) runs the same round again; a message runs it with the message as its note', () => {
    const step = { kind: 'execute_step' as const, step: 2, attempt: 1 };
    const waiting = interrupted(running('EXECUTE', step)).state;
    const retry = transition(waiting, { type: 'decide', on: 'interrupted', choice: 'retry' }, OPTS);
    expect(retry.state.inflight).toEqual(step);
    expect(retry.effects).toContainEqual({ type: 'run_agent', role: 'planner', action: step });

    const withNote = transition(waiting, { type: 'answer', text: '  use the existing helper  ' }, OPTS);
    expect(withNote.state.inflight).toEqual({ ...step, note: personsNote('use the existing helper') });
    expect(withNote.state.phase).toBe('EXECUTE');
  });

  it('a note is not carried into the next interruption: the person says what applies then', () => {
    const first = interrupted(running('WRITE_PLAN', { kind: 'write_plan' })).state;
    const withNote = transition(first, { type: 'answer', text: 'keep it short' }, OPTS).state;
    const again = interrupted(withNote).state;
    expect(again.awaiting).toEqual({ kind: 'interrupted', role: 'planner', action: { kind: 'write_plan' } });
  });

  it('stop goes back to goal refinement with the plan kept; an empty message is refused', () => {
    const waiting = interrupted(running('RESPOND', { kind: 'respond' }, { iteration: 2 })).state;
    const stopped = transition(waiting, { type: 'decide', on: 'interrupted', choice: 'stop' }, OPTS);
    expect(stopped.state.phase).toBe('REFINE_GOAL');
    expect(stopped.state.awaiting).toEqual({ kind: 'goal' });
    expect(() => transition(waiting, { type: 'answer', text: '   ' }, OPTS)).toThrow(/message is empty/);
  });

  it('agent-collab’s own tests or commit, or no round at all, cannot be interrupted', () => {
    expect(() => interrupted(running('EXECUTE', { kind: 'run_tests', step: 1, attempt: 1 }))).toThrow(
      /cannot be interrupted/,
    );
    expect(() => interrupted(running('EXECUTE', { kind: 'commit_step', step: 1, summary: 'x' }))).toThrow(
      /cannot be interrupted/,
    );
    expect(() => interrupted({ ...running('REVIEW', { kind: 'review' }), inflight: null })).toThrow(/no agent round/);
  });

  it('the note is added to the round’s full prompt, after the task', async () => {
    const prompts = { render: (name: string) => Promise.resolve(`the ${name} task`) };
    const files = { readPlan: () => Promise.resolve('# plan'), readComments: () => Promise.resolve(null) };
    const s = running('WRITE_PLAN', { kind: 'write_plan' });
    const note = personsNote('no new deps');
    const text = await buildTurnPrompt(prompts, files as never, s, { kind: 'write_plan', note });
    expect(text.startsWith('the write_plan task')).toBe(true);
    expect(text).toMatch(/interrupted your previous attempt[\s\S]*\n\nno new deps\n$/);
  });
});
