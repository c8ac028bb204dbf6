// The execution phase of the state machine: a step's attempts, its tests and retries, the commit with its
// secret scan, rollback, and what the person decides when a step cannot finish on its own. Pure, like transition.ts.
import { proceed, runNow, schedule, settle, waitForPerson } from './approval.js';
import { startCodeReview, testLine, wantsFinalReview, wantsStepReview } from './code-review.js';
import type { Effect, EngineEvent } from './events.js';
import { summarizeStepAnswer } from './plan-steps.js';
import { parseTestCommandAnswer } from './test-answer.js';
import type { TransitionResult } from './transition.js';
import type { ChoiceId } from './decisions.js';
import type { Action, Awaiting, StepFailureCategory, StepRun, WorkflowState } from './types.js';

export interface ExecutionOptions {
  /** `[test] max_retries`: failing tests give the planner this many more attempts. */
  maxRetries: number;
  /** `[test] fallback_to_agent`: with no test command, ask the planner for one. */
  testFallbackToAgent: boolean;
  /** `[safety] max_denials_per_step`: denied commands in one attempt before the step stops. */
  maxDenials: number;
}

type Ev<T extends EngineEvent['type']> = Extract<EngineEvent, { type: T }>;
type Reject = (why: string) => never;

/** Bounded text fed back to the planner and kept in state.json. */
const FEEDBACK_MAX = 6000;

export function firstOpenStep(s: WorkflowState): number | null {
  return s.steps.find((st) => !st.done && !st.skipped)?.n ?? null;
}

function stepTitle(s: WorkflowState, n: number): string {
  return s.steps.find((st) => st.n === n)?.title ?? `step ${n}`;
}

function totalTokens(s: WorkflowState): number {
  return s.usage.inputTokens + s.usage.outputTokens;
}

/** The last step is done: the run ends, unless the final code review has yet to approve its code. */
export function finishExecution(s: WorkflowState, effects: Effect[]): TransitionResult {
  if (wantsFinalReview(s))
    return startCodeReview(
      settle({ ...s, inflight: null, awaiting: null, currentStep: null, stepRun: null, pendingCommand: null }),
      null,
      effects,
    );
  const done = s.steps.filter((st) => st.done).length;
  const skipped = s.steps.filter((st) => st.skipped).length;
  return {
    state: {
      ...s,
      phase: 'DONE',
      inflight: null,
      awaiting: null,
      currentStep: null,
      stepRun: null,
      pendingCommand: null,
      pauseRequested: false,
    },
    effects: [
      ...effects,
      {
        type: 'log',
        title: 'Run finished',
        lines: [`${done} of ${s.steps.length} step(s) done${skipped ? `, ${skipped} skipped` : ''}`],
      },
      { type: 'report', ending: 'done', reason: 'Run finished', step: null },
    ],
  };
}

/** Moves on to the next open step, or finishes the run. */
export function nextStep(s: WorkflowState, effects: Effect[]): TransitionResult {
  const cleared: WorkflowState = settle({ ...s, inflight: null, stepRun: null });
  const open = firstOpenStep(cleared);
  if (open === null) return finishExecution(cleared, effects);
  return schedule({ ...cleared, currentStep: open }, { kind: 'execute_step', step: open }, effects);
}

/**
 * What the next attempt is told about the failed test run: the output's tail, or, when the command printed nothing,
 * how it ended (an empty feedback would send the plain execute prompt, as if nothing had failed).
 */
function testFeedback(e: Extract<EngineEvent, { type: 'tests_done' }>): string {
  if (e.output.trim() !== '') return tail(e.output);
  if (e.timedOut) return `\`${e.command}\` timed out, no output`;
  return `\`${e.command}\` failed: exit code ${e.exitCode ?? 'unknown'}, no output`;
}

function tail(text: string, max = FEEDBACK_MAX): string {
  if (text.length <= max) return text;
  const head = Math.floor(max / 4);
  return `${text.slice(0, head)}\n[… ${text.length - max} characters cut …]\n${text.slice(text.length - (max - head))}`;
}

function stepFailed(
  s: WorkflowState,
  category: StepFailureCategory,
  message: string,
  effects: Effect[],
): TransitionResult {
  const run = s.stepRun;
  const step = run?.step ?? s.currentStep ?? 0;
  return {
    state: {
      ...waitForPerson(s, {
        kind: 'step_failed',
        step,
        attempt: run?.attempt ?? 1,
        category,
        message,
        rolledBack: false,
      }),
      pendingCommand: null,
    },
    effects: [
      ...effects,
      { type: 'log', title: `Step ${step} needs the person (${category})`, lines: [message.split('\n')[0] ?? ''] },
    ],
  };
}

/** The round that carries out a step attempt ended with the planner's answer: test it (or find out how first). */
export function onExecuteDone(
  s: WorkflowState,
  action: Extract<Action, { kind: 'execute_step' }>,
  text: string,
): TransitionResult {
  const summary = summarizeStepAnswer(text, stepTitle(s, action.step));
  const run: StepRun =
    s.stepRun?.step === action.step ? { ...s.stepRun, summary } : { ...newStepRun(s, action.step, null, ''), summary };
  const next: WorkflowState = { ...s, stepRun: run };
  return afterAttempt(next, action.step, run.attempt);
}

function afterAttempt(s: WorkflowState, step: number, attempt: number): TransitionResult {
  const run = s.stepRun as StepRun;
  if (s.testCommand === '') return reviewOrCommit({ ...s, stepRun: { ...run, testResult: 'none' } }, step, []);
  // The runner finds the command (configured, detected, or the planner's); none → `no_test_command`.
  return proceed(s, { kind: 'run_tests', step, attempt });
}

/** The step's tests passed (or there are none): its diff goes to the code reviewer first (`each`), else the commit. */
function reviewOrCommit(s: WorkflowState, step: number, effects: Effect[]): TransitionResult {
  if (wantsStepReview(s)) return startCodeReview(settle({ ...s, inflight: null }), step, effects);
  return commitNow(s, step, effects);
}

export function commitNow(s: WorkflowState, step: number, effects: Effect[], allowSecrets = false): TransitionResult {
  const summary = s.stepRun?.summary ?? stepTitle(s, step);
  const action: Action = allowSecrets
    ? { kind: 'commit_step', step, summary, allowSecrets }
    : { kind: 'commit_step', step, summary };
  return proceed(s, action, effects);
}

export function newStepRun(s: WorkflowState, step: number, baseTree: string | null, at: string): StepRun {
  return {
    step,
    attempt: 1,
    baseTree,
    startedAt: at,
    testCommand: null,
    denials: 0,
    summary: null,
    feedback: null,
    testResult: null,
    tokensAtStart: totalTokens(s),
    costAtStart: s.usage.costUsd,
  };
}

export function onStepStarted(s: WorkflowState, e: Ev<'step_started'>, reject: Reject): TransitionResult {
  if (s.inflight?.kind !== 'execute_step' || s.inflight.step !== e.step) reject(`step ${e.step} is not being executed`);
  // The run's first step's snapshot is where the final code review's diff starts.
  const cr = s.codeReview;
  const codeReview = cr && cr.baseTree === null ? { ...cr, baseTree: e.baseTree } : cr;
  return {
    state: { ...s, stepRun: newStepRun(s, e.step, e.baseTree, e.at), codeReview },
    effects: [{ type: 'log', title: `Step ${e.step} started`, lines: [stepTitle(s, e.step)] }],
  };
}

/** The step whose tests are running: an event about any other step is refused. */
function stepUnderTest(s: WorkflowState, step: number, reject: Reject): StepRun {
  if (s.inflight?.kind !== 'run_tests' || s.inflight.step !== step || !s.stepRun)
    reject(`step ${step} is not being tested`);
  return s.stepRun as StepRun;
}

/** The runner found no test command: ask the planner (when allowed), else commit untested. */
export function onNoTestCommand(
  s: WorkflowState,
  e: Ev<'no_test_command'>,
  opts: ExecutionOptions,
  reject: Reject,
): TransitionResult {
  const run = stepUnderTest(s, e.step, reject);
  if (opts.testFallbackToAgent && s.testCommand === null) {
    return proceed(s, { kind: 'ask_test_command', step: e.step }, [
      { type: 'log', title: 'No test command found; asking the planner' },
    ]);
  }
  const noTests: WorkflowState = { ...s, stepRun: { ...run, testResult: 'none' } };
  return reviewOrCommit(noTests, e.step, [
    { type: 'log', title: `Step ${e.step}: no test command; committing untested` },
  ]);
}

export function onTestCommandAnswer(s: WorkflowState, step: number, text: string): TransitionResult {
  const command = parseTestCommandAnswer(text);
  const run = s.stepRun ?? newStepRun(s, step, null, '');
  const next: WorkflowState = { ...s, testCommand: command ?? '', stepRun: run };
  const log: Effect = {
    type: 'log',
    title: command ? `Planner's test command: ${command}` : 'Planner says the project has no tests',
  };
  if (!command)
    return reviewOrCommit({ ...next, stepRun: { ...(next.stepRun as StepRun), testResult: 'none' } }, step, [log]);
  return proceed(next, { kind: 'run_tests', step, attempt: run.attempt }, [log]);
}

export function onTestsDone(
  s: WorkflowState,
  e: Ev<'tests_done'>,
  opts: ExecutionOptions,
  reject: Reject,
): TransitionResult {
  const run = stepUnderTest(s, e.step, reject);
  const notice: Effect = {
    type: 'notify',
    notice: {
      kind: 'tests',
      step: e.step,
      attempt: e.attempt,
      command: e.command,
      passed: e.passed,
      durationMs: e.durationMs,
    },
  };
  if (e.passed) {
    return reviewOrCommit(
      { ...s, stepRun: { ...run, testCommand: e.command, testResult: 'passed', feedback: null } },
      e.step,
      [notice],
    );
  }
  const why = e.timedOut ? `\`${e.command}\` timed out` : `\`${e.command}\` failed`;
  const feedback = testFeedback(e);
  const failedRun: StepRun = { ...run, testCommand: e.command, testResult: 'failed', feedback };
  const log: Effect = { type: 'log', title: `Step ${e.step} attempt ${e.attempt}: tests failed`, lines: [why] };
  // Only attempts after failing tests count against the retries: those the code review asked for do not.
  if (e.attempt - (run.reviewAttempts ?? 0) <= opts.maxRetries) {
    const retry: Action = { kind: 'execute_step', step: e.step, attempt: e.attempt + 1, feedback };
    const next: WorkflowState = settle({
      ...s,
      inflight: null,
      stepRun: { ...failedRun, attempt: e.attempt + 1, denials: 0 },
    });
    return schedule(next, retry, [notice, log]);
  }
  const lastLines = e.output.trimEnd().split('\n').slice(-15).join('\n');
  return stepFailed(
    { ...s, stepRun: failedRun },
    e.timedOut ? 'timeout' : 'test_failure',
    `${why} after ${e.attempt} attempt(s)\n${lastLines}`,
    [notice, log],
  );
}

/** An attempt ended without a usable answer for a step-level reason (policy denials, …). */
export function onAttemptFailed(s: WorkflowState, e: Ev<'attempt_failed'>, reject: Reject): TransitionResult {
  if (s.phase !== 'EXECUTE' || s.currentStep !== e.step) reject(`step ${e.step} is not being executed`);
  return stepFailed(s, e.category, e.message, []);
}

type Waiting<K extends Awaiting['kind']> = Extract<Awaiting, { kind: K }>;

/** `stop` is handled by the caller (back to goal refinement). */
export function onStepChoice(
  s: WorkflowState,
  choice: ChoiceId<'step_failed'>,
  w: Waiting<'step_failed'>,
): TransitionResult {
  const run = s.stepRun ?? newStepRun(s, w.step, null, '');
  switch (choice) {
    case 'retry': {
      const attempt = run.attempt + 1;
      const action: Action =
        run.feedback && !w.rolledBack
          ? { kind: 'execute_step', step: w.step, attempt, feedback: run.feedback }
          : { kind: 'execute_step', step: w.step, attempt };
      return runNow({ ...s, stepRun: { ...run, attempt, denials: 0 } }, action, [
        { type: 'log', title: `Person retries step ${w.step} (attempt ${attempt})` },
      ]);
    }
    case 'skip': {
      const steps = s.steps.map((st) => (st.n === w.step ? { ...st, skipped: true } : st));
      const effects: Effect[] = [
        { type: 'mark_step_skipped', step: w.step },
        {
          type: 'log',
          title: `Step ${w.step} skipped by the person`,
          lines: [
            w.rolledBack ? 'its changes were rolled back' : 'its changes are left in the working tree, uncommitted',
          ],
        },
      ];
      return nextStep({ ...s, steps, awaiting: null }, effects);
    }
    case 'rollback':
      if (w.rolledBack) return { state: s, effects: [] };
      return runNow(s, { kind: 'rollback_step', step: w.step });
    case 'stop':
      return { state: s, effects: [] }; // handled by the caller as a `stop`
  }
}

export function onStepRolledBack(s: WorkflowState, e: Ev<'step_rolled_back'>, reject: Reject): TransitionResult {
  if (s.inflight?.kind !== 'rollback_step' || s.inflight.step !== e.step)
    reject(`step ${e.step} is not being rolled back`);
  const run = s.stepRun;
  return {
    state: {
      ...s,
      inflight: null,
      awaiting: {
        kind: 'step_failed',
        step: e.step,
        attempt: run?.attempt ?? 1,
        category: 'test_failure',
        message: `step ${e.step} was rolled back (${e.files.length} file(s) restored); its patch is kept in the run's artifacts`,
        rolledBack: true,
      },
    },
    effects: [
      {
        type: 'log',
        title: `Step ${e.step} rolled back`,
        lines: e.files.length ? e.files.map((f) => `restored ${f}`) : ['no files had changed'],
      },
    ],
  };
}

export function onSecretsFound(s: WorkflowState, e: Ev<'secrets_found'>, reject: Reject): TransitionResult {
  if (s.inflight?.kind !== 'commit_step' || s.inflight.step !== e.step) reject(`step ${e.step} is not being committed`);
  const summary = s.inflight.summary;
  return {
    state: waitForPerson(s, { kind: 'secret_found', step: e.step, summary, findings: e.findings }),
    effects: [
      {
        type: 'log',
        title: `Step ${e.step} not committed: possible secret`,
        lines: e.findings.map((f) => `${f.file}:${f.line} ${f.kind}`),
      },
    ],
  };
}

export function onCommitFailed(s: WorkflowState, e: Ev<'commit_failed'>, reject: Reject): TransitionResult {
  if (s.inflight?.kind !== 'commit_step' || s.inflight.step !== e.step) reject(`step ${e.step} is not being committed`);
  const summary = s.inflight.summary;
  return {
    state: waitForPerson(s, { kind: 'commit_failed', step: e.step, summary, message: e.message }),
    effects: [{ type: 'log', title: `Commit of step ${e.step} failed`, lines: [e.message] }],
  };
}

/** The step ends without a commit (the person chose to leave its changes uncommitted). */
export function doneUncommitted(s: WorkflowState, step: number, why: string): TransitionResult {
  const steps = s.steps.map((st) => (st.n === step ? { ...st, done: true, commit: null } : st));
  return nextStep({ ...s, steps, awaiting: null }, [
    { type: 'mark_step_done', step, commit: null },
    { type: 'log', title: `Step ${step} done without a commit`, lines: [why] },
  ]);
}

export function onSecretChoice(
  s: WorkflowState,
  choice: ChoiceId<'secret_found'>,
  w: Waiting<'secret_found'>,
): TransitionResult {
  switch (choice) {
    case 'retry':
      return commitNow({ ...s, awaiting: null }, w.step, []);
    case 'commit-anyway':
      return commitNow(
        { ...s, awaiting: null },
        w.step,
        [
          {
            type: 'log',
            title: `Person committed step ${w.step} despite the secret scan`,
            lines: w.findings.map((f) => `${f.file}:${f.line} ${f.kind}`),
          },
        ],
        true,
      );
    case 'leave':
      return doneUncommitted(s, w.step, 'possible secret; the changes are left in the working tree');
    case 'stop':
      return { state: s, effects: [] };
  }
}

export function onCommitChoice(
  s: WorkflowState,
  choice: ChoiceId<'commit_failed'>,
  w: Waiting<'commit_failed'>,
): TransitionResult {
  switch (choice) {
    case 'retry':
      return commitNow({ ...s, awaiting: null }, w.step, []);
    case 'continue':
      return doneUncommitted(s, w.step, `the commit failed (${w.message}); the changes are left in the working tree`);
    case 'stop':
      return { state: s, effects: [] };
  }
}

function formatDuration(ms: number): string {
  const secs = Math.round(ms / 1000);
  return secs < 60 ? `${secs} s` : `${Math.floor(secs / 60)} min ${secs % 60} s`;
}

export function onStepCommitted(s: WorkflowState, e: Ev<'step_committed'>, reject: Reject): TransitionResult {
  if (s.inflight?.kind !== 'commit_step' || s.inflight.step !== e.step) reject(`step ${e.step} is not being committed`);
  const steps = s.steps.map((st) => (st.n === e.step ? { ...st, done: true, commit: e.commit } : st));
  const run = s.stepRun;
  const lines = [e.commit ? `commit ${e.commit.slice(0, 7)}` : 'no changes: nothing committed'];
  if (e.files) lines.push(`files: ${e.files.length ? e.files.join(', ') : '(none)'}`);
  if (run) {
    lines.push(
      `tests: ${run.testResult === 'passed' ? `passed (\`${run.testCommand ?? ''}\`)` : run.testResult === 'none' ? 'none run' : (run.testResult ?? 'not run')}`,
    );
    lines.push(`attempts: ${run.attempt}`);
    if (run.startedAt && e.at) lines.push(`duration: ${formatDuration(Date.parse(e.at) - Date.parse(run.startedAt))}`);
    lines.push(
      `tokens: ${totalTokens(s) - run.tokensAtStart}, cost: $${(s.usage.costUsd - run.costAtStart).toFixed(4)}`,
    );
  }
  const effects: Effect[] = [
    { type: 'mark_step_done', step: e.step, commit: e.commit },
    { type: 'log', title: `Step ${e.step} done: ${stepTitle(s, e.step)}`, lines },
  ];
  const cr = s.codeReview;
  const codeReview = cr ? { ...cr, tests: [...cr.tests, testLine(e.step, run)] } : cr;
  return nextStep({ ...s, steps, codeReview }, effects);
}
