// The workflow state machine: a pure function from (state, event) to (state, effects).
import { onInterrupt, onInterruptedChoice } from './interrupt.js';
import { addUsage } from './usage.js';
import { onHunksOverlap, onLargeChange } from './commit-holds.js';
import type { Effect, EngineEvent } from './events.js';
import { runNow, schedule, settle, waitForPerson } from './approval.js';
import {
  finishExecution,
  firstOpenStep,
  onAttemptFailed,
  onCommitFailed,
  onExecuteDone,
  onNoTestCommand,
  onSecretsFound,
  onStepCommitted,
  onStepRolledBack,
  onStepStarted,
  onTestCommandAnswer,
  onTestsDone,
} from './execution.js';
import { onCommandDenied, onCommandHeld } from './command-hold.js';
import { initialCodeReview } from './code-review.js';
import { onCodeDiff, onCodeFixAnswer, onCodeReviewAnswer } from './code-review-loop.js';
import type { Action, Phase, WorkflowState } from './types.js';
import { onDecide } from './decide.js';
import { onForbiddenChange } from './repo-invariants.js';
import { addWorked } from './budget.js';
import { afterSpending, guardRoundStart, onBudgetCheck } from './budget-guard.js';
import { onReviewAnswer } from './review-loop.js';
import { onLimitReset, onUsageLimit } from './usage-limit.js';
import { emptyLedger } from './ledger.js';
import { recordAnswer } from './ledger-state.js';
import {
  execOpts,
  failed,
  reject,
  requireAwaiting,
  requireIdle,
  requireInflight,
  RUNNING,
  stopToGoal,
  TERMINAL,
  type TransitionOptions,
  type TransitionResult,
} from './transition-rules.js';

export { InvalidEventError, isTerminal, type TransitionOptions, type TransitionResult } from './transition-rules.js';

function onAgentDone(before: WorkflowState, e: Extract<EngineEvent, { type: 'agent_done' }>): TransitionResult {
  requireInflight(before, e);
  const action = before.inflight as Action;
  // The planner's answers to the review it answers are read into the ledger first (core/ledger-state.ts).
  const s = recordAnswer(before, action, e.text);
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
    case 'code_review':
      return onCodeReviewAnswer({ ...s, inflight: null }, action, e.text);
    case 'code_fix':
      return onCodeFixAnswer({ ...s, inflight: null }, e.text);
    case 'ask_test_command':
      return onTestCommandAnswer({ ...s, inflight: null }, action.step, e.text);
    case 'run_tests':
    case 'commit_step':
    case 'rollback_step':
      return reject(s, e, `${action.kind} is not an agent round`);
  }
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

/**
 * Applies one event. Throws InvalidEventError when the event is not allowed now; the state is then unchanged.
 * Whatever the event, an agent round it would start waits instead while a budget is spent (core/budget-guard.ts).
 */
export function transition(s: WorkflowState, e: EngineEvent, opts: TransitionOptions): TransitionResult {
  return guardRoundStart(answeredAfterLimits(applyEvent(s, e, opts), e), opts);
}

/** A round that answered ends a row of usage-limit waits (core/usage-limit.ts counts them). */
function answeredAfterLimits(r: TransitionResult, e: EngineEvent): TransitionResult {
  if (!r.state.limitWaits || (e.type !== 'agent_done' && e.type !== 'agent_question')) return r;
  return { ...r, state: { ...r.state, limitWaits: 0 } };
}

function applyEvent(s: WorkflowState, e: EngineEvent, opts: TransitionOptions): TransitionResult {
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
        codeReview: initialCodeReview(opts.codeReview),
        // A new goal gets a new plan: the earlier plan's entries are no entries of it.
        ledger: emptyLedger(),
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
        effects: [
          { type: 'stop_agents' },
          { type: 'log', title: `Run cancelled in ${s.phase}` },
          // Written before the archive, so that the report moves to history/ with the rest of the run.
          { type: 'report', ending: 'cancelled', reason: `Cancelled by the person in ${s.phase}`, step: s.currentStep },
          { type: 'archive' },
        ],
      };
    }
    case 'interrupt':
      if (!RUNNING.has(s.phase)) reject(s, e, 'no run is in progress');
      return onInterrupt(s, (why) => reject(s, e, why));
    case 'answer': {
      // After an interruption, the person's text is a message the round runs again with.
      if (s.awaiting?.kind === 'interrupted' && !s.inflight)
        return onInterruptedChoice(s, s.awaiting, 'message', e.text, (why) => reject(s, e, why));
      const w = requireAwaiting(s, e, 'question');
      if (!e.text.trim()) reject(s, e, 'the answer is empty');
      return runNow(s, { ...w.action, answer: e.text.trim() } as Action, [
        { type: 'log', title: `Person answered the ${w.role}`, lines: [e.text.trim()] },
      ]);
    }
    case 'decide':
      return onDecide(s, e, opts, (state, event) => transition(state, event, opts));
    case 'session': {
      if (s.sessions[e.role] === e.sessionId) return { state: s, effects: [] };
      return { state: { ...s, sessions: { ...s.sessions, [e.role]: e.sessionId } }, effects: [] };
    }
    case 'usage':
      return afterSpending(addUsage(s, e.role, e), opts, e.roundEnded !== true);
    case 'worked':
      return afterSpending(addWorked(s, e.ms, e.role), opts, e.roundEnded !== true);
    case 'budget_check':
      return onBudgetCheck(s, opts);
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
      if (e.kind === 'usage_limit') return onUsageLimit(s, { ...e, action: s.inflight as Action }, opts);
      return failed(s, e.role, s.inflight as Action, e.kind, e.message);
    }
    case 'limit_reset':
      return onLimitReset(s, e);
    case 'steps_loaded':
      return onStepsLoaded(s, e, opts);
    case 'code_diff':
      return onCodeDiff(s, e, (why) => reject(s, e, why));
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
    case 'hunks_overlap':
      return onHunksOverlap(s, e, (why) => reject(s, e, why));
    case 'large_change':
      return onLargeChange(s, e, (why) => reject(s, e, why));
    case 'step_rolled_back':
      return onStepRolledBack(s, e, (why) => reject(s, e, why));
    case 'attempt_failed':
      return onAttemptFailed(s, e, (why) => reject(s, e, why));
    case 'forbidden_change':
      return onForbiddenChange(s, e, (why) => reject(s, e, why));
    case 'external_change': {
      requireInflight(s, e);
      return {
        state: waitForPerson(s, {
          kind: 'external_change',
          file: e.file,
          role: e.role,
          action: e.action,
          text: e.text,
        }),
        effects: [
          {
            type: 'log',
            title: `${e.file === 'plan' ? 'plan.md' : 'comments.md'} changed outside agent-collab; waiting for the person`,
          },
        ],
      };
    }
    case 'merge_conflicts': {
      requireInflight(s, e);
      const name = e.file === 'plan' ? 'plan.md' : 'comments.md';
      return {
        state: waitForPerson(s, {
          kind: 'merge_conflicts',
          file: e.file,
          role: e.role,
          action: e.action,
          text: e.text,
          yours: e.yours,
          conflicts: e.conflicts,
        }),
        effects: [
          {
            type: 'log',
            title: `${name}: your edit and the ${e.role}'s version conflict (${e.conflicts}); waiting for you to resolve them`,
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
