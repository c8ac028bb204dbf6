// The execution phase as a pure state machine: tests after each attempt, retries with the failure fed back,
// the person's choices when a step still fails, secret-scan and commit-failure decisions, held commands.
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../src/core/events.js';
import { newStepRun } from '../../../src/core/execution.js';
import { transition } from '../../../src/core/transition.js';
import type { StepInfo, WorkflowState } from '../../../src/core/types.js';
import { OPTS, running, stateIn } from '../../helpers/states.js';

const steps: StepInfo[] = [
  { n: 1, title: 'add greet()', done: false },
  { n: 2, title: 'add tests', done: false },
];
const opts = { ...OPTS, execution: { maxRetries: 2, testFallbackToAgent: true, maxDenials: 2 } };

function executing(extra: Partial<WorkflowState> = {}): WorkflowState {
  const base = stateIn('EXECUTE', { steps, currentStep: 1, mode: 'auto' });
  return { ...base, stepRun: { ...newStepRun(base, 1, 'tree0', '2026-01-01T00:00:00Z') }, ...extra };
}

const step = (s: WorkflowState, e: EngineEvent) => transition(s, e, opts);
const types = (effects: { type: string }[]) => effects.map((e) => e.type);

describe('a step attempt is tested before it is committed', () => {
  it('the snapshot before the first attempt starts the step run', () => {
    const s = running('EXECUTE', { kind: 'execute_step', step: 1 }, { steps, currentStep: 1 });
    const r = step(s, { type: 'step_started', step: 1, baseTree: 'abc', at: '2026-01-01T00:00:05Z' });
    expect(r.state.stepRun).toMatchObject({
      step: 1,
      attempt: 1,
      baseTree: 'abc',
      startedAt: '2026-01-01T00:00:05Z',
      denials: 0,
    });
  });

  it("the planner's answer leads to a test run, with its summary kept for the commit", () => {
    const s = executing({ inflight: { kind: 'execute_step', step: 1 } });
    const r = step(s, {
      type: 'agent_done',
      role: 'planner',
      action: { kind: 'execute_step', step: 1 },
      text: 'Done.\nSummary: add greet()',
    });
    expect(r.state.inflight).toEqual({ kind: 'run_tests', step: 1, attempt: 1 });
    expect(r.state.stepRun?.summary).toBe('add greet()');
    expect(types(r.effects)).toEqual(['run_tests']);
  });

  it('passing tests commit the step', () => {
    const s = executing({
      inflight: { kind: 'run_tests', step: 1, attempt: 1 },
      stepRun: { ...executing().stepRun!, summary: 'add greet()' },
    });
    const r = step(s, {
      type: 'tests_done',
      step: 1,
      attempt: 1,
      command: 'npm test',
      passed: true,
      output: 'ok',
      durationMs: 900,
      timedOut: false,
    });
    expect(r.state.inflight).toEqual({ kind: 'commit_step', step: 1, summary: 'add greet()' });
    expect(r.state.stepRun).toMatchObject({ testResult: 'passed', testCommand: 'npm test' });
    expect(r.effects.find((e) => e.type === 'notify')).toMatchObject({
      notice: { kind: 'tests', passed: true, command: 'npm test' },
    });
  });

  it('failing tests give the planner another attempt with the failing output', () => {
    const s = executing({ inflight: { kind: 'run_tests', step: 1, attempt: 1 } });
    const r = step(s, {
      type: 'tests_done',
      step: 1,
      attempt: 1,
      command: 'npm test',
      passed: false,
      output: 'FAIL greet.test.js\nexpected "hi"',
      durationMs: 900,
      timedOut: false,
    });
    expect(r.state.inflight).toEqual({
      kind: 'execute_step',
      step: 1,
      attempt: 2,
      feedback: 'FAIL greet.test.js\nexpected "hi"',
    });
    expect(r.state.stepRun).toMatchObject({ attempt: 2, testResult: 'failed' });
  });

  it('the failing output fed back is bounded', () => {
    const s = executing({ inflight: { kind: 'run_tests', step: 1, attempt: 1 } });
    const r = step(s, {
      type: 'tests_done',
      step: 1,
      attempt: 1,
      command: 'npm test',
      passed: false,
      output: 'x'.repeat(100_000),
      durationMs: 1,
      timedOut: false,
    });
    const action = r.state.inflight as { feedback: string };
    expect(action.feedback.length).toBeLessThan(7000);
    expect(action.feedback).toContain('characters cut');
  });

  it('after max_retries more attempts the person is asked, in manual mode', () => {
    const s = executing({
      inflight: { kind: 'run_tests', step: 1, attempt: 3 },
      stepRun: { ...executing().stepRun!, attempt: 3 },
    });
    const r = step(s, {
      type: 'tests_done',
      step: 1,
      attempt: 3,
      command: 'npm test',
      passed: false,
      output: 'still failing',
      durationMs: 1,
      timedOut: false,
    });
    expect(r.state.inflight).toBeNull();
    expect(r.state.mode).toBe('manual');
    expect(r.state.awaiting).toMatchObject({
      kind: 'step_failed',
      step: 1,
      attempt: 3,
      category: 'test_failure',
      rolledBack: false,
    });
    expect((r.state.awaiting as { message: string }).message).toContain('still failing');
  });

  it('a test timeout is reported as such', () => {
    const s = executing({
      inflight: { kind: 'run_tests', step: 1, attempt: 3 },
      stepRun: { ...executing().stepRun!, attempt: 3 },
    });
    const r = step(s, {
      type: 'tests_done',
      step: 1,
      attempt: 3,
      command: 'npm test',
      passed: false,
      output: '',
      durationMs: 1,
      timedOut: true,
    });
    expect(r.state.awaiting).toMatchObject({ kind: 'step_failed', category: 'timeout' });
  });

  it('no test command: the planner is asked once; its answer is used for the rest of the run', () => {
    const s = executing({ inflight: { kind: 'run_tests', step: 1, attempt: 1 } });
    const asked = step(s, { type: 'no_test_command', step: 1 });
    expect(asked.state.inflight).toEqual({ kind: 'ask_test_command', step: 1 });
    const answered = step(asked.state, {
      type: 'agent_done',
      role: 'planner',
      action: { kind: 'ask_test_command', step: 1 },
      text: 'Command: `make check`',
    });
    expect(answered.state.testCommand).toBe('make check');
    expect(answered.state.inflight).toEqual({ kind: 'run_tests', step: 1, attempt: 1 });
  });

  it('no test command and the planner says none: the step is committed untested, and later steps are not tested', () => {
    const s = executing({ inflight: { kind: 'ask_test_command', step: 1 } });
    const r = step(s, {
      type: 'agent_done',
      role: 'planner',
      action: { kind: 'ask_test_command', step: 1 },
      text: 'Command: none',
    });
    expect(r.state.testCommand).toBe('');
    expect(r.state.inflight).toMatchObject({ kind: 'commit_step', step: 1 });
    const s2 = {
      ...r.state,
      inflight: { kind: 'execute_step' as const, step: 2 },
      stepRun: newStepRun(r.state, 2, 't', ''),
    };
    const r2 = step(s2, {
      type: 'agent_done',
      role: 'planner',
      action: { kind: 'execute_step', step: 2 },
      text: 'Summary: tests',
    });
    expect(r2.state.inflight).toMatchObject({ kind: 'commit_step', step: 2 });
  });

  it('without fallback_to_agent, no test command means commit untested', () => {
    const s = executing({ inflight: { kind: 'run_tests', step: 1, attempt: 1 } });
    const r = transition(
      s,
      { type: 'no_test_command', step: 1 },
      { ...opts, execution: { ...opts.execution, testFallbackToAgent: false } },
    );
    expect(r.state.inflight).toMatchObject({ kind: 'commit_step', step: 1 });
    expect(r.state.stepRun?.testResult).toBe('none');
  });
});

describe('the person decides about a step that still fails', () => {
  const failedState = executing({
    mode: 'manual',
    awaiting: { kind: 'step_failed', step: 1, attempt: 3, category: 'test_failure', message: 'x', rolledBack: false },
    stepRun: { ...executing().stepRun!, attempt: 3, feedback: 'FAIL' },
  });

  it('retry runs one more attempt with the failure fed back', () => {
    const r = step(failedState, { type: 'decide', on: 'step_failed', choice: 'retry' });
    expect(r.state.inflight).toEqual({ kind: 'execute_step', step: 1, attempt: 4, feedback: 'FAIL' });
  });

  it('skip marks the step skipped and moves on', () => {
    const r = step(failedState, { type: 'decide', on: 'step_failed', choice: 'skip' });
    expect(r.state.steps[0]).toMatchObject({ skipped: true, done: false });
    expect(r.state.awaiting).toEqual({ kind: 'go', action: { kind: 'execute_step', step: 2 } });
    expect(types(r.effects)).toContain('mark_step_skipped');
  });

  it('rollback restores the tree, then asks again without offering rollback twice', () => {
    const r = step(failedState, { type: 'decide', on: 'step_failed', choice: 'rollback' });
    expect(r.state.inflight).toEqual({ kind: 'rollback_step', step: 1 });
    const back = step(r.state, { type: 'step_rolled_back', step: 1, files: ['a.js'] });
    expect(back.state.awaiting).toMatchObject({ kind: 'step_failed', rolledBack: true });
    expect(() => step(back.state, { type: 'decide', on: 'step_failed', choice: 'rollback' })).toThrow(
      /already rolled back/,
    );
    const retry = step(back.state, { type: 'decide', on: 'step_failed', choice: 'retry' });
    expect(retry.state.inflight).toEqual({ kind: 'execute_step', step: 1, attempt: 4 });
  });

  it('stop goes back to goal refinement with the plan kept', () => {
    const r = step(failedState, { type: 'decide', on: 'step_failed', choice: 'stop' });
    expect(r.state.phase).toBe('REFINE_GOAL');
    expect(r.state.stepRun).toBeNull();
    expect(types(r.effects)).toEqual(['stop_agents', 'set_plan_status', 'log', 'report']);
  });

  it('the last step skipped finishes the run', () => {
    const last = {
      ...failedState,
      steps: [{ ...steps[0]!, done: true }, steps[1]!],
      currentStep: 2,
      awaiting: { ...failedState.awaiting!, step: 2 } as WorkflowState['awaiting'],
    };
    const r = step(last, { type: 'decide', on: 'step_failed', choice: 'skip' });
    expect(r.state.phase).toBe('DONE');
  });
});

describe('commits: secrets and failures ask the person', () => {
  const committing = executing({ inflight: { kind: 'commit_step', step: 1, summary: 'add greet()' } });

  it('a possible secret holds the commit; commit anyway needs the explicit choice', () => {
    const r = step(committing, {
      type: 'secrets_found',
      step: 1,
      findings: [{ file: '.env', line: 1, kind: '.env file' }],
    });
    expect(r.state.awaiting).toMatchObject({ kind: 'secret_found', step: 1, summary: 'add greet()' });
    expect(r.state.mode).toBe('manual');
    const anyway = step(r.state, { type: 'decide', on: 'secret_found', choice: 'commit-anyway' });
    expect(anyway.state.inflight).toEqual({ kind: 'commit_step', step: 1, summary: 'add greet()', allowSecrets: true });
    const again = step(r.state, { type: 'decide', on: 'secret_found', choice: 'retry' });
    expect(again.state.inflight).toEqual({ kind: 'commit_step', step: 1, summary: 'add greet()' });
    const leave = step(r.state, { type: 'decide', on: 'secret_found', choice: 'leave' });
    expect(leave.state.steps[0]).toMatchObject({ done: true, commit: null });
  });

  it('a failed commit offers retry, continue without the commit, or stop', () => {
    const r = step(committing, { type: 'commit_failed', step: 1, message: 'pre-commit hook failed' });
    expect(r.state.awaiting).toMatchObject({ kind: 'commit_failed', step: 1, message: 'pre-commit hook failed' });
    expect(step(r.state, { type: 'decide', on: 'commit_failed', choice: 'retry' }).state.inflight).toMatchObject({
      kind: 'commit_step',
      step: 1,
    });
    const cont = step(r.state, { type: 'decide', on: 'commit_failed', choice: 'continue' });
    expect(cont.state.steps[0]).toMatchObject({ done: true, commit: null });
    expect(step(r.state, { type: 'decide', on: 'commit_failed', choice: 'stop' }).state.phase).toBe('REFINE_GOAL');
  });

  it("a step's log entry names its commit, files, tests, attempts, duration and tokens", () => {
    const s = {
      ...committing,
      stepRun: { ...committing.stepRun!, testResult: 'passed' as const, testCommand: 'npm test', attempt: 2 },
    };
    const r = step(s, {
      type: 'step_committed',
      step: 1,
      commit: 'abcdef1234',
      files: ['greet.js'],
      at: '2026-01-01T00:01:05Z',
    });
    const log = r.effects.find((e) => e.type === 'log') as { lines: string[] };
    expect(log.lines).toEqual([
      'commit abcdef1',
      'files: greet.js',
      'tests: passed (`npm test`)',
      'attempts: 2',
      'duration: 1 min 5 s',
      'tokens: 0, cost: $0.0000',
    ]);
  });
});

describe('held commands', () => {
  const during = executing({ inflight: { kind: 'execute_step', step: 1 } });
  const held = {
    id: 'c1',
    role: 'planner' as const,
    command: 'git push',
    decision: 'confirm' as const,
    rule: 'git push',
    reason: 'needs confirmation',
  };

  it('a held command waits in the state while the round goes on', () => {
    const r = step(during, { type: 'command_held', command: held });
    expect(r.state.pendingCommand).toEqual(held);
    expect(r.state.inflight).toEqual(during.inflight);
  });

  it('allow for the run remembers the command; allow once does not', () => {
    const s = step(during, { type: 'command_held', command: held }).state;
    const run = step(s, { type: 'decide', on: 'command', id: 'c1', choice: 'allow-run' });
    expect(run.state.allowedCommands).toEqual(['git push']);
    expect(run.effects[0]).toEqual({
      type: 'answer_command',
      id: 'c1',
      allow: true,
      reason: 'allowed for this run by the person',
    });
    const once = step(s, { type: 'decide', on: 'command', id: 'c1', choice: 'allow-once' });
    expect(once.state.allowedCommands).toEqual([]);
    expect(once.state.pendingCommand).toBeNull();
  });

  it('a stale answer is rejected', () => {
    const s = step(during, { type: 'command_held', command: held }).state;
    expect(() => step(s, { type: 'decide', on: 'command', id: 'other', choice: 'deny' })).toThrow(/no longer waiting/);
  });

  it('denials are counted; at max_denials_per_step the step stops and the person is asked', () => {
    const first = step(during, { type: 'command_denied', id: null, command: 'chmod -R 777 .', reason: 'blocked' });
    expect(first.state.stepRun?.denials).toBe(1);
    expect(first.state.inflight).not.toBeNull();
    const second = step(first.state, { type: 'command_denied', id: null, command: 'chmod 0777 x', reason: 'blocked' });
    expect(second.state.inflight).toBeNull();
    expect(second.state.awaiting).toMatchObject({ kind: 'step_failed', category: 'policy_block' });
    expect(types(second.effects)).toContain('stop_agents');
  });

  it("the person's deny tells the agent not to try variants", () => {
    const s = step(during, { type: 'command_held', command: held }).state;
    const r = step(s, { type: 'decide', on: 'command', id: 'c1', choice: 'deny' });
    expect(r.effects[0]).toMatchObject({ type: 'answer_command', allow: false });
    expect((r.effects[0] as { reason: string }).reason).toMatch(/do not try variants/);
  });
});

describe('plan.md changed outside while the planner wrote a new version', () => {
  it('the person chooses; the choice goes to the runner to reconcile, then the round completes', () => {
    const s = running('RESPOND', { kind: 'respond' }, { iteration: 1 });
    const r = step(s, {
      type: 'external_change',
      role: 'planner',
      action: { kind: 'respond' },
      file: 'plan',
      text: 'new plan',
    });
    expect(r.state.awaiting).toMatchObject({ kind: 'external_change', file: 'plan', text: 'new plan' });
    const merged = step(r.state, { type: 'decide', on: 'external_change', choice: 'merge' });
    expect(merged.state.inflight).toEqual({ kind: 'respond' });
    expect(merged.effects.at(-1)).toEqual({
      type: 'merge_external',
      role: 'planner',
      action: { kind: 'respond' },
      file: 'plan',
      text: 'new plan',
      choice: 'merge',
    });
  });
});

describe('pause during a step in auto mode', () => {
  it("P while a step runs takes effect after the step's tests and commit, before the next step", () => {
    const s = executing({ inflight: { kind: 'execute_step', step: 1 }, pauseRequested: true });
    const tested = step(s, {
      type: 'agent_done',
      role: 'planner',
      action: { kind: 'execute_step', step: 1 },
      text: 'Summary: x',
    });
    expect(tested.state).toMatchObject({ pauseRequested: true, mode: 'auto', inflight: { kind: 'run_tests' } });
    const commit = step(tested.state, {
      type: 'tests_done',
      step: 1,
      attempt: 1,
      command: 't',
      passed: true,
      output: '',
      durationMs: 1,
      timedOut: false,
    });
    expect(commit.state).toMatchObject({ pauseRequested: true, inflight: { kind: 'commit_step' } });
    const next = step(commit.state, { type: 'step_committed', step: 1, commit: 'abc1234' });
    expect(next.state).toMatchObject({
      mode: 'manual',
      pauseRequested: false,
      inflight: null,
      awaiting: { kind: 'go', action: { kind: 'execute_step', step: 2 } },
    });
  });
});
