// The code review in the pure state machine: where it starts (the last step done, or a step's tests passed), what
// a verdict leads to, the cap, and the person's choices there.
import { describe, expect, it } from 'vitest';
import { initialCodeReview } from '../../../src/core/code-review.js';
import type { Effect } from '../../../src/core/events.js';
import { newStepRun } from '../../../src/core/execution.js';
import { InvalidEventError, transition } from '../../../src/core/transition.js';
import type { CodeReviewState, WorkflowState } from '../../../src/core/types.js';
import { OPTS, running, stateIn } from '../../helpers/states.js';

const steps = [
  { n: 1, title: 'Add a', done: true, commit: 'aaaaaaa' },
  { n: 2, title: 'Add b', done: false },
];

function review(mode: 'final' | 'each', extra: Partial<CodeReviewState> = {}): CodeReviewState {
  return { ...(initialCodeReview({ mode, maxRounds: 2 }) as CodeReviewState), ...extra };
}

function kinds(effects: Effect[]): string[] {
  return effects.map((e) => (e.type === 'run_agent' ? `run_agent:${e.action.kind}` : e.type));
}

/** Step 2 being committed, its tests passed. */
function committing(codeReview: CodeReviewState | null): WorkflowState {
  const run = {
    ...newStepRun(stateIn('EXECUTE'), 2, 'tree2', 't'),
    testResult: 'passed' as const,
    testCommand: 'npm test',
  };
  return running(
    'EXECUTE',
    { kind: 'commit_step', step: 2, summary: 'add b' },
    {
      mode: 'auto',
      steps,
      currentStep: 2,
      stepRun: run,
      codeReview,
    },
  );
}

describe('the code review in the state machine', () => {
  it('goal_ready sets the review up from the options; "off" (or no options) leaves it out', () => {
    const goal = stateIn('REFINE_GOAL', { awaiting: { kind: 'goal' } });
    const on = transition(goal, { type: 'goal_ready' }, { ...OPTS, codeReview: { mode: 'final', maxRounds: 3 } });
    expect(on.state.codeReview).toMatchObject({ mode: 'final', maxRounds: 3, limit: 3, round: 0, approved: false });
    const off = transition(goal, { type: 'goal_ready' }, { ...OPTS, codeReview: { mode: 'off', maxRounds: 3 } });
    expect(off.state.codeReview).toBeNull();
    expect(transition(goal, { type: 'goal_ready' }, OPTS).state.codeReview).toBeNull();
  });

  it('final: the last step committed → CODE_REVIEW with the reviewer at work, not DONE; the step’s tests recorded', () => {
    const r = transition(committing(review('final')), { type: 'step_committed', step: 2, commit: 'bbbbbbb' }, OPTS);
    expect(r.state.phase).toBe('CODE_REVIEW');
    expect(r.state.inflight).toEqual({ kind: 'code_review', step: null });
    expect(kinds(r.effects)).toContain('run_agent:code_review');
    expect(r.state.codeReview?.tests).toEqual(['Step 2: `npm test` passed (attempt 1)']);
    // Off: the same commit ends the run.
    expect(transition(committing(null), { type: 'step_committed', step: 2, commit: 'b' }, OPTS).state.phase).toBe(
      'DONE',
    );
  });

  it('each: tests passed → the step’s review, no commit yet; approved → the commit', () => {
    const testing = { ...committing(review('each')), inflight: { kind: 'run_tests' as const, step: 2, attempt: 1 } };
    const tested = transition(
      testing,
      {
        type: 'tests_done',
        step: 2,
        attempt: 1,
        command: 'npm test',
        passed: true,
        output: '',
        durationMs: 1,
        timedOut: false,
      },
      OPTS,
    );
    expect(tested.state.phase).toBe('CODE_REVIEW');
    expect(tested.state.inflight).toEqual({ kind: 'code_review', step: 2 });
    expect(kinds(tested.effects)).not.toContain('commit_step');

    const approved = transition(
      tested.state,
      { type: 'agent_done', role: 'reviewer', action: { kind: 'code_review', step: 2 }, text: '[APPROVED]\n\nfine' },
      OPTS,
    );
    expect(approved.state.phase).toBe('EXECUTE');
    expect(approved.state.inflight).toMatchObject({ kind: 'commit_step', step: 2 });
  });

  it('each: changes required → the step’s next attempt with the comments; at the cap the person is asked', () => {
    const reviewing = running(
      'CODE_REVIEW',
      { kind: 'code_review', step: 2 },
      {
        mode: 'auto',
        steps,
        currentStep: 2,
        stepRun: newStepRun(stateIn('EXECUTE'), 2, 'tree2', 't'),
        codeReview: review('each', { step: 2 }),
      },
    );
    const text = '[CHANGES_REQUIRED]\n\n## Comments\n1. Rename b.';
    const first = transition(
      reviewing,
      { type: 'agent_done', role: 'reviewer', action: { kind: 'code_review', step: 2 }, text },
      OPTS,
    );
    expect(first.state.phase).toBe('EXECUTE');
    expect(first.state.inflight).toEqual({ kind: 'execute_step', step: 2, attempt: 2, review: text });

    const again = {
      ...first.state,
      phase: 'CODE_REVIEW' as const,
      inflight: { kind: 'code_review' as const, step: 2 },
    };
    const capped = transition(
      again,
      { type: 'agent_done', role: 'reviewer', action: { kind: 'code_review', step: 2 }, text },
      OPTS,
    );
    expect(capped.state.awaiting).toEqual({ kind: 'code_review_cap', round: 2, step: 2 });
    expect(capped.state.inflight).toBeNull();

    const more = transition(
      capped.state,
      { type: 'decide', on: 'code_review_cap', choice: 'continue', rounds: 2 },
      OPTS,
    );
    expect(more.state.codeReview?.limit).toBe(4);
    expect(more.state.awaiting).toMatchObject({ kind: 'go', action: { kind: 'execute_step', step: 2, attempt: 3 } });
  });

  it('each: an attempt the code review asked for does not use up a test retry', () => {
    const opts = { ...OPTS, execution: { maxRetries: 1 } };
    const reviewing = running(
      'CODE_REVIEW',
      { kind: 'code_review', step: 2 },
      {
        mode: 'auto',
        steps,
        currentStep: 2,
        stepRun: newStepRun(stateIn('EXECUTE'), 2, 'tree2', 't'),
        codeReview: review('each', { step: 2 }),
      },
    );
    const text = '[CHANGES_REQUIRED]\n\n## Comments\n1. Rename b.';
    const rejected = transition(
      reviewing,
      { type: 'agent_done', role: 'reviewer', action: { kind: 'code_review', step: 2 }, text },
      opts,
    );
    expect(rejected.state.stepRun?.attempt).toBe(2);
    const failing = { ...rejected.state, inflight: { kind: 'run_tests' as const, step: 2, attempt: 2 } };
    const tests = {
      type: 'tests_done' as const,
      step: 2,
      command: 'npm test',
      passed: false,
      output: 'FAIL',
      durationMs: 1,
      timedOut: false,
    };
    const retried = transition(failing, { ...tests, attempt: 2 }, opts);
    expect(retried.state.inflight).toMatchObject({ kind: 'execute_step', step: 2, attempt: 3 });

    // The one test retry is used now: the next failure goes to the person.
    const again = { ...retried.state, inflight: { kind: 'run_tests' as const, step: 2, attempt: 3 } };
    const stopped = transition(again, { ...tests, attempt: 3 }, opts);
    expect(stopped.state.awaiting).toMatchObject({ kind: 'step_failed', step: 2 });
  });

  it('final: the planner’s fix steps are appended and executed next; none listed → the person decides as at the cap', () => {
    const fixing = running(
      'CODE_REVIEW',
      { kind: 'code_fix' },
      {
        mode: 'auto',
        steps: steps.map((s) => ({ ...s, done: true })),
        codeReview: review('final', { round: 1, comments: '[CHANGES_REQUIRED]\n1. x' }),
      },
    );
    const r = transition(
      fixing,
      { type: 'agent_done', role: 'planner', action: { kind: 'code_fix' }, text: '## Fix steps\n1. Fix x\n' },
      OPTS,
    );
    expect(r.effects).toContainEqual({ type: 'append_steps', titles: ['Fix x (from code review, round 1)'] });
    expect(r.state.steps.at(-1)).toEqual({ n: 3, title: 'Fix x (from code review, round 1)', done: false });
    expect(r.state.phase).toBe('EXECUTE');
    expect(r.state.inflight).toEqual({ kind: 'execute_step', step: 3 });

    const none = transition(
      fixing,
      { type: 'agent_done', role: 'planner', action: { kind: 'code_fix' }, text: 'I disagree.' },
      OPTS,
    );
    expect(none.state.awaiting).toEqual({ kind: 'code_review_cap', round: 1, step: null, noFixSteps: 'I disagree.' });
    expect(none.state.inflight).toBeNull();
    const accepted = transition(none.state, { type: 'decide', on: 'code_review_cap', choice: 'accept' }, OPTS);
    expect(accepted.state.codeReview?.approved).toBe(true);
    expect(accepted.state.awaiting).toBeNull();
    const edited = transition(none.state, { type: 'decide', on: 'code_review_cap', choice: 'edit' }, OPTS);
    expect(edited.state.awaiting).toEqual({ kind: 'code_edit', step: null });
    // The person's hand edits are not committed: the next review reads the working tree too.
    const sent = transition(edited.state, { type: 'decide', on: 'code_edit', choice: 'edited' }, OPTS);
    expect(sent.state.codeReview?.edited).toBe(true);
    expect(sent.state.phase).toBe('CODE_REVIEW');
    // More rounds after no fix steps: not the planner again (it would answer the same), the reviewer reads the code
    // again with the planner's answer.
    const more = transition(
      { ...none.state, mode: 'auto' },
      { type: 'decide', on: 'code_review_cap', choice: 'continue', rounds: 1 },
      OPTS,
    );
    expect(more.state.phase).toBe('CODE_REVIEW');
    expect(more.state.inflight).toMatchObject({ kind: 'code_review', step: null });
    expect((more.state.inflight as { note?: string }).note).toContain(
      '<planner_answer>\nI disagree.\n</planner_answer>',
    );
    expect(more.state.codeReview?.limit).toBe(2);
  });

  it('a diff arriving when no code review runs is refused', () => {
    const s = running('EXECUTE', { kind: 'execute_step', step: 2 }, { codeReview: review('final') });
    expect(() => transition(s, { type: 'code_diff', step: null, diff: 'x', files: [] }, OPTS)).toThrow(
      InvalidEventError,
    );
  });
});
