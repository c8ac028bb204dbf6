// The line the TUI leaves on the normal screen: where the run stands and what to run next.
import { describe, expect, it } from 'vitest';
import { tuiExitLine } from '../../../src/modes/tui-exit-line.js';
import { running } from '../../helpers/states.js';

const steps = [
  { n: 1, title: 'a', done: true },
  { n: 2, title: 'b', done: false },
];

describe('the TUI exit line', () => {
  it('names the step an executing run stopped at and how to continue it', () => {
    const s = { ...running('EXECUTE', { kind: 'execute_step', step: 2 }), steps, currentStep: 2 };
    expect(tuiExitLine(s, null)).toBe('agent-collab: run saved at step 2 of 2; run `agent-collab` here to continue it');
  });

  it('names the phase before execution', () => {
    expect(tuiExitLine(running('REVIEW', { kind: 'review' }), null)).toBe(
      'agent-collab: run saved at REVIEW; run `agent-collab` here to continue it',
    );
  });

  it('says a finished run is done with its committed steps, and a cancelled one how to start anew', () => {
    expect(
      tuiExitLine({ ...running('DONE', { kind: 'review' }), steps: steps.map((x) => ({ ...x, done: true })) }, null),
    ).toBe("agent-collab: done, 2 of 2 step(s) committed; the run's log is .agent-collab/log.md");
    expect(tuiExitLine(running('CANCELLED', { kind: 'review' }), null)).toMatch(/run cancelled .* to start a new goal/);
  });

  it('says nothing was started before a goal, and gives the reason a run was stopped by', () => {
    expect(tuiExitLine({ ...running('REFINE_GOAL', { kind: 'refine', message: 'hi' }), goal: '' }, null)).toBe(
      'agent-collab: no run started; run `agent-collab` to state a goal',
    );
    expect(tuiExitLine(running('REVIEW', { kind: 'review' }), '.agent-collab/ was deleted')).toBe(
      'agent-collab: stopped: .agent-collab/ was deleted',
    );
  });
});
