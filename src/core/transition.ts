// The workflow state machine: a pure function from (state, event) to (state, effects).
import type { DecideEvent } from './decisions.js';
import type { Effect, EngineEvent } from './events.js';
import { parseVerdict } from './verdict.js';
import { proceed, runNow, schedule, settle } from './approval.js';
import {
  finishExecution,
  firstOpenStep,
  onAttemptFailed,
  onCommitChoice,
  onCommitFailed,
  onExecuteDone,
  onNoTestCommand,
  onSecretChoice,
  onSecretsFound,
  onStepChoice,
  onStepCommitted,
  onStepRolledBack,
  onStepStarted,
  onTestCommandAnswer,
  onTestsDone,
  type ExecutionOptions,
} from './execution.js';
import { onCommandChoice, onCommandDenied, onCommandHeld } from './command-hold.js';
import type { Action, Awaiting, Phase, Role, WorkflowState } from './types.js';

type FailureKindOrEngine = Extract<Awaiting, { kind: 'failure' }>['failure'];

export interface TransitionOptions {
  /** Base iteration cap (`workflow.max_iterations`). */
  maxIterations: number;
  /** `workflow.auto_approve`: in auto mode, an approved plan goes to execution without the person's go. */
  autoApprove: boolean;
  /** Execution settings; defaults: 3 retries, ask the planner for a test command, 3 denials per step. */
  execution?: Partial<ExecutionOptions>;
}

const EXECUTION_DEFAULTS: ExecutionOptions = { maxRetries: 3, testFallbackToAgent: true, maxDenials: 3 };

function execOpts(opts: TransitionOptions): ExecutionOptions {
  return { ...EXECUTION_DEFAULTS, ...opts.execution };
}

export interface TransitionResult {
  state: WorkflowState;
  effects: Effect[];
}

/** An event that is not allowed in the current phase. The state is unchanged. */
export class InvalidEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidEventError';
  }
}

const TERMINAL: ReadonlySet<Phase> = new Set(['DONE', 'CANCELLED']);
const RUNNING: ReadonlySet<Phase> = new Set(['REFINE_GOAL', 'WRITE_PLAN', 'REVIEW', 'RESPOND', 'APPROVED', 'EXECUTE']);

export function isTerminal(phase: Phase): boolean {
  return TERMINAL.has(phase);
}

function reject(state: WorkflowState, event: EngineEvent, why: string): never {
  throw new InvalidEventError(`"${event.type}" is not allowed in phase ${state.phase}: ${why}`);
}

function requireIdle(s: WorkflowState, e: EngineEvent): void {
  if (s.inflight) reject(s, e, `an agent round (${s.inflight.kind}) is still running; wait for it, or stop it`);
}

function requireAwaiting<K extends NonNullable<WorkflowState['awaiting']>['kind']>(
  s: WorkflowState,
  e: EngineEvent,
  kind: K,
): Extract<NonNullable<WorkflowState['awaiting']>, { kind: K }> {
  requireIdle(s, e);
  if (s.awaiting?.kind !== kind)
    reject(
      s,
      e,
      s.awaiting ? `the workflow is waiting for ${s.awaiting.kind}, not ${kind}` : 'nothing is waiting for it',
    );
  return s.awaiting as Extract<NonNullable<WorkflowState['awaiting']>, { kind: K }>;
}

function requireInflight(s: WorkflowState, e: Extract<EngineEvent, { action: Action }>): void {
  if (!s.inflight || s.inflight.kind !== e.action.kind) {
    reject(s, e, `no ${e.action.kind} round is running (stale result ignored)`);
  }
}

function approve(s: WorkflowState, effects: Effect[], how: string): TransitionResult {
  return {
    state: { ...s, phase: 'APPROVED', inflight: null, awaiting: null, unclearCount: 0 },
    effects: [
      ...effects,
      { type: 'set_plan_status', status: 'approved' },
      { type: 'log', title: how },
      { type: 'load_steps' },
    ],
  };
}

function onReviewAnswer(s: WorkflowState, text: string): TransitionResult {
  const parsed = parseVerdict(text);
  if (parsed.kind === 'unparseable') {
    const notice: Effect = {
      type: 'notify',
      notice: { kind: 'verdict', iteration: s.iteration + 1, verdict: 'UNCLEAR', marker: false },
    };
    const logged: Effect = { type: 'log', title: `Reviewer answer unclear (${parsed.reason})` };
    if (s.unclearCount === 0) {
      // Re-ask once, at once: it is the same round.
      return proceed({ ...s, unclearCount: 1 }, { kind: 'review', reask: true }, [notice, logged]);
    }
    return {
      state: settle({
        ...s,
        inflight: null,
        unclearCount: s.unclearCount + 1,
        awaiting: { kind: 'unclear_verdict', text, action: { kind: 'review', reask: true } },
      }),
      effects: [notice, logged],
    };
  }
  return applyVerdict(
    s,
    parsed.kind === 'approved' ? 'APPROVED' : 'CHANGES_REQUIRED',
    text,
    parsed.kind === 'approved' || parsed.marker,
  );
}

function applyVerdict(
  s: WorkflowState,
  verdict: 'APPROVED' | 'CHANGES_REQUIRED',
  text: string,
  marker: boolean,
): TransitionResult {
  const iteration = s.iteration + 1;
  const next: WorkflowState = { ...s, iteration, lastVerdict: verdict, unclearCount: 0, inflight: null };
  const effects: Effect[] = [
    { type: 'write_comments', text, verdict, iteration },
    { type: 'notify', notice: { kind: 'verdict', iteration, verdict, marker } },
  ];
  if (verdict === 'APPROVED') return approve(next, effects, `Reviewer approved the plan (iteration ${iteration})`);
  effects.push({ type: 'log', title: `Reviewer requested changes (iteration ${iteration}/${s.maxIterations})` });
  if (iteration >= next.maxIterations) {
    return {
      state: settle({ ...next, phase: 'REVIEW', awaiting: { kind: 'arbitration', iteration } }),
      effects: [
        ...effects,
        { type: 'log', title: `Iteration cap reached (${iteration}); waiting for the person to decide` },
      ],
    };
  }
  return schedule({ ...next, phase: 'RESPOND' }, { kind: 'respond' }, effects);
}

function onAgentDone(s: WorkflowState, e: Extract<EngineEvent, { type: 'agent_done' }>): TransitionResult {
  requireInflight(s, e);
  const action = s.inflight as Action;
  const base = settle({ ...s, inflight: null });
  switch (action.kind) {
    case 'refine':
      return {
        state: { ...base, refinedGoal: e.text.trim() || s.refinedGoal, awaiting: { kind: 'goal' } },
        effects: [],
      };
    case 'write_plan':
    case 'respond': {
      if (!e.text.trim()) {
        return failed(
          s,
          'planner',
          action,
          'agent_error',
          'the planner answered with an empty plan; retry to ask again',
        );
      }
      const effects: Effect[] = [
        { type: 'write_plan', text: e.text, iteration: s.iteration },
        {
          type: 'log',
          title:
            action.kind === 'write_plan'
              ? 'Planner wrote the plan'
              : `Planner revised the plan (after iteration ${s.iteration})`,
        },
      ];
      return schedule({ ...base, phase: 'REVIEW' }, { kind: 'review' }, effects);
    }
    case 'review':
      return onReviewAnswer({ ...s, inflight: null }, e.text);
    case 'execute_step':
      return onExecuteDone(s, action, e.text);
    case 'ask_test_command':
      return onTestCommandAnswer({ ...s, inflight: null }, action.step, e.text);
    case 'run_tests':
    case 'commit_step':
    case 'rollback_step':
      return reject(s, e, `${action.kind} is not an agent round`);
  }
}

function failed(
  s: WorkflowState,
  role: Role | null,
  action: Action | null,
  failure: FailureKindOrEngine,
  message: string,
): TransitionResult {
  return {
    state: {
      ...s,
      inflight: null,
      pauseRequested: false,
      mode: 'manual',
      awaiting: { kind: 'failure', role, failure, message, action },
    },
    effects: [{ type: 'log', title: `${role ?? 'engine'} failed (${failure})`, lines: [message] }],
  };
}

function onStepsLoaded(
  s: WorkflowState,
  e: Extract<EngineEvent, { type: 'steps_loaded' }>,
  opts: TransitionOptions,
): TransitionResult {
  if (s.phase !== 'APPROVED' && s.phase !== 'EXECUTE') reject(s, e, 'steps are loaded only after approval');
  const withSteps: WorkflowState = { ...s, steps: e.steps };
  if (e.steps.length === 0) {
    return failed(
      withSteps,
      null,
      null,
      'engine',
      "plan.md has no steps under '## Steps' (lines like `1. [ ] …`); edit the plan, then retry",
    );
  }
  const next = firstOpenStep(withSteps);
  if (next === null) return finishExecution({ ...withSteps, phase: 'EXECUTE' }, []);
  const action: Action = { kind: 'execute_step', step: next };
  if (s.phase === 'EXECUTE') return schedule({ ...withSteps, currentStep: next }, action);
  if (opts.autoApprove && s.mode === 'auto' && !s.pauseRequested) {
    return runNow({ ...withSteps, phase: 'EXECUTE', currentStep: next }, action, [
      { type: 'log', title: 'Execution started (auto-approved)' },
    ]);
  }
  // The person approves execution with their go.
  return { state: settle({ ...withSteps, inflight: null, awaiting: { kind: 'go', action } }), effects: [] };
}

function stopToGoal(s: WorkflowState, why: string): TransitionResult {
  return {
    state: {
      ...s,
      phase: 'REFINE_GOAL',
      inflight: null,
      awaiting: { kind: 'goal' },
      mode: 'manual',
      pauseRequested: false,
      currentStep: null,
      stepRun: null,
      pendingCommand: null,
      unclearCount: 0,
    },
    effects: [{ type: 'stop_agents' }, { type: 'set_plan_status', status: 'draft' }, { type: 'log', title: why }],
  };
}

/** The person's choice at one of the questions of decisions.ts. */
function onDecide(s: WorkflowState, e: DecideEvent, opts: TransitionOptions): TransitionResult {
  if (e.on === 'command') return onCommandChoice(s, e.id, e.choice, execOpts(opts), (why) => reject(s, e, why));
  switch (e.on) {
    case 'arbitration': {
      requireAwaiting(s, e, 'arbitration');
      const cleared: WorkflowState = { ...s, awaiting: null };
      switch (e.choice) {
        case 'approve':
          return approve(cleared, [], `Plan force-approved by the person at iteration ${s.iteration}`);
        case 'continue': {
          const rounds = e.rounds ?? 0;
          if (!Number.isInteger(rounds) || rounds < 1) reject(s, e, 'continue needs a whole number of rounds ≥ 1');
          const next: WorkflowState = { ...cleared, phase: 'RESPOND', maxIterations: s.iteration + rounds };
          return schedule(next, { kind: 'respond' }, [
            { type: 'log', title: `Person allowed ${rounds} more round(s)` },
          ]);
        }
        case 'edit':
          return {
            state: { ...cleared, awaiting: { kind: 'manual_edit' } },
            effects: [{ type: 'log', title: 'Person is editing the plan by hand' }],
          };
        case 'cancel':
          return transition(cleared, { type: 'cancel' }, opts);
      }
      return reject(s, e, 'unknown choice');
    }
    case 'manual_edit': {
      requireAwaiting(s, e, 'manual_edit');
      const next: WorkflowState = {
        ...s,
        awaiting: null,
        phase: 'REVIEW',
        maxIterations: Math.max(s.maxIterations, s.iteration + 1),
      };
      return schedule(next, { kind: 'review' }, [
        { type: 'accept_edit', file: 'plan' },
        { type: 'log', title: 'Plan edited by the person; sent to review' },
      ]);
    }
    case 'unclear_verdict': {
      const w = requireAwaiting(s, e, 'unclear_verdict');
      if (e.choice === 'retry') return runNow({ ...s, unclearCount: 1 }, w.action);
      return applyVerdict({ ...s, awaiting: null }, 'CHANGES_REQUIRED', `[CHANGES_REQUIRED]\n\n${w.text}`, false);
    }
    case 'failure':
      requireAwaiting(s, e, 'failure');
      return transition(s, { type: 'go' }, opts);
    case 'step_failed': {
      const w = requireAwaiting(s, e, 'step_failed');
      if (e.choice === 'stop')
        return stopToGoal(s, `Stopped at step ${w.step} by the person; back to goal refinement (plan kept)`);
      if (e.choice === 'rollback' && w.rolledBack) reject(s, e, 'the step is already rolled back');
      return onStepChoice(s, e.choice, w);
    }
    case 'secret_found': {
      const w = requireAwaiting(s, e, 'secret_found');
      if (e.choice === 'stop')
        return stopToGoal(
          s,
          `Stopped at step ${w.step} (possible secret); back to goal refinement (changes left uncommitted)`,
        );
      return onSecretChoice(s, e.choice, w);
    }
    case 'commit_failed': {
      const w = requireAwaiting(s, e, 'commit_failed');
      if (e.choice === 'stop')
        return stopToGoal(
          s,
          `Stopped at step ${w.step} (commit failed); back to goal refinement (changes left uncommitted)`,
        );
      return onCommitChoice(s, e.choice, w);
    }
    case 'external_change': {
      const w = requireAwaiting(s, e, 'external_change');
      return {
        state: { ...s, inflight: w.action, awaiting: null },
        effects: [
          { type: 'log', title: `Person chose to ${e.choice} (${w.file === 'plan' ? 'plan.md' : 'comments.md'})` },
          { type: 'merge_external', role: w.role, action: w.action, file: w.file, text: w.text, choice: e.choice },
        ],
      };
    }
  }
}

/** Applies one event. Throws InvalidEventError when the event is not allowed now; the state is then unchanged. */
export function transition(s: WorkflowState, e: EngineEvent, opts: TransitionOptions): TransitionResult {
  if (TERMINAL.has(s.phase)) reject(s, e, 'the run is finished; start a new one');
  switch (e.type) {
    case 'start': {
      if (s.phase !== 'INIT') reject(s, e, 'the run has already started');
      return {
        state: { ...s, phase: 'REFINE_GOAL', goal: e.goal.trim(), awaiting: { kind: 'goal' } },
        effects: [{ type: 'log', title: 'Run started', lines: e.goal.trim() ? [`goal: ${e.goal.trim()}`] : [] }],
      };
    }
    case 'user_message': {
      if (s.phase !== 'REFINE_GOAL') reject(s, e, 'messages to the planner are for goal refinement');
      requireAwaiting(s, e, 'goal');
      const text = e.text.trim();
      if (!text) reject(s, e, 'the message is empty');
      const goal = s.goal || text;
      return runNow({ ...s, goal }, { kind: 'refine', message: text });
    }
    case 'goal_ready': {
      if (s.phase !== 'REFINE_GOAL') reject(s, e, 'the goal can be confirmed only during goal refinement');
      requireAwaiting(s, e, 'goal');
      const goal = (e.goal ?? s.goal).trim();
      if (!goal) reject(s, e, 'state a goal first');
      const next: WorkflowState = {
        ...s,
        goal,
        phase: 'WRITE_PLAN',
        iteration: 0,
        maxIterations: opts.maxIterations,
        lastVerdict: null,
        unclearCount: 0,
        steps: [],
        currentStep: null,
        stepRun: null,
        testCommand: null,
      };
      return schedule(next, { kind: 'write_plan' }, [{ type: 'log', title: 'Goal is ready', lines: [goal] }]);
    }
    case 'go': {
      requireIdle(s, e);
      const w = s.awaiting;
      if (w?.kind === 'go') {
        const phase: Phase = w.action.kind === 'execute_step' ? 'EXECUTE' : s.phase;
        const extra: Effect[] =
          s.phase === 'APPROVED' && phase === 'EXECUTE'
            ? [{ type: 'log', title: 'Execution started (approved by the person)' }]
            : [];
        return runNow({ ...s, phase }, w.action, extra);
      }
      if (w?.kind === 'failure') {
        if (w.action) return runNow(s, w.action);
        if (s.phase === 'APPROVED' || s.phase === 'EXECUTE')
          return { state: { ...s, awaiting: null }, effects: [{ type: 'load_steps' }] };
      }
      return reject(s, e, w ? `the workflow is waiting for ${w.kind}, not a go` : 'nothing is waiting for a go');
    }
    case 'set_mode': {
      if (!RUNNING.has(s.phase)) reject(s, e, 'no run is in progress');
      const next: WorkflowState = { ...s, mode: e.mode, pauseRequested: false };
      if (e.mode === 'auto' && !s.inflight && s.awaiting?.kind === 'go') {
        const phase: Phase = s.awaiting.action.kind === 'execute_step' ? 'EXECUTE' : s.phase;
        return runNow({ ...next, phase }, s.awaiting.action);
      }
      return { state: next, effects: [] };
    }
    case 'pause': {
      if (s.mode !== 'auto') reject(s, e, 'auto mode is not on');
      if (s.inflight) return { state: { ...s, pauseRequested: true }, effects: [] };
      return { state: { ...s, mode: 'manual', pauseRequested: false }, effects: [] };
    }
    case 'stop': {
      if (!RUNNING.has(s.phase)) reject(s, e, 'nothing to stop');
      return stopToGoal(s, `Stopped in ${s.phase}; back to goal refinement (plan kept)`);
    }
    case 'cancel': {
      if (s.phase === 'INIT' && !s.goal) reject(s, e, 'nothing has started');
      return {
        state: {
          ...s,
          phase: 'CANCELLED',
          inflight: null,
          awaiting: null,
          pauseRequested: false,
          pendingCommand: null,
        },
        effects: [{ type: 'stop_agents' }, { type: 'log', title: `Run cancelled in ${s.phase}` }, { type: 'archive' }],
      };
    }
    case 'answer': {
      const w = requireAwaiting(s, e, 'question');
      if (!e.text.trim()) reject(s, e, 'the answer is empty');
      return runNow(s, { ...w.action, answer: e.text.trim() } as Action, [
        { type: 'log', title: `Person answered the ${w.role}`, lines: [e.text.trim()] },
      ]);
    }
    case 'decide':
      return onDecide(s, e, opts);
    case 'session': {
      if (s.sessions[e.role] === e.sessionId) return { state: s, effects: [] };
      return { state: { ...s, sessions: { ...s.sessions, [e.role]: e.sessionId } }, effects: [] };
    }
    case 'usage': {
      const u = s.usage;
      return {
        state: {
          ...s,
          usage: {
            inputTokens: u.inputTokens + e.inputTokens,
            outputTokens: u.outputTokens + e.outputTokens,
            cachedTokens: u.cachedTokens + e.cachedTokens,
            costUsd: u.costUsd + e.costUsd,
            durationMs: u.durationMs + e.durationMs,
            calls: u.calls + 1,
          },
        },
        effects: [],
      };
    }
    case 'agent_done':
      return onAgentDone(s, e);
    case 'agent_question': {
      requireInflight(s, e);
      return {
        state: {
          ...s,
          inflight: null,
          pauseRequested: false,
          awaiting: { kind: 'question', role: e.role, text: e.text, action: s.inflight as Action },
        },
        effects: [{ type: 'log', title: `The ${e.role} asked a question`, lines: [e.text] }],
      };
    }
    case 'agent_failed': {
      requireInflight(s, e);
      return failed(s, e.role, s.inflight as Action, e.kind, e.message);
    }
    case 'steps_loaded':
      return onStepsLoaded(s, e, opts);
    case 'step_committed':
      return onStepCommitted(s, e, (why) => reject(s, e, why));
    case 'step_started':
      return onStepStarted(s, e, (why) => reject(s, e, why));
    case 'tests_done':
      return onTestsDone(s, e, execOpts(opts), (why) => reject(s, e, why));
    case 'no_test_command':
      return onNoTestCommand(s, e, execOpts(opts), (why) => reject(s, e, why));
    case 'secrets_found':
      return onSecretsFound(s, e, (why) => reject(s, e, why));
    case 'commit_failed':
      return onCommitFailed(s, e, (why) => reject(s, e, why));
    case 'step_rolled_back':
      return onStepRolledBack(s, e, (why) => reject(s, e, why));
    case 'attempt_failed':
      return onAttemptFailed(s, e, (why) => reject(s, e, why));
    case 'external_change': {
      requireInflight(s, e);
      return {
        state: {
          ...s,
          inflight: null,
          mode: 'manual',
          pauseRequested: false,
          awaiting: { kind: 'external_change', file: e.file, role: e.role, action: e.action, text: e.text },
        },
        effects: [
          {
            type: 'log',
            title: `${e.file === 'plan' ? 'plan.md' : 'comments.md'} changed outside agent-collab; waiting for the person`,
          },
        ],
      };
    }
    case 'command_held':
      return onCommandHeld(s, e, (why) => reject(s, e, why));
    case 'command_denied':
      return onCommandDenied(s, e, execOpts(opts));
    case 'engine_failed':
      return failed(s, null, e.action, 'engine', e.message);
  }
}
