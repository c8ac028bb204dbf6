// Builds the prompt of each agent round from the templates and the current files.
import type { Prompts, WorkflowFiles } from '../core/ports.js';
import type { Action, WorkflowState } from '../core/types.js';
import { ledgerForPlanner, ledgerForReviewer } from '../core/ledger-text.js';
import { codeScope, PLAN_SCOPE } from '../core/ledger-state.js';

const NONE = '(none)';

const REASK =
  'Your previous answer could not be read as a verdict. Answer again. The FIRST line of your answer must be exactly ' +
  '`[APPROVED]` or `[CHANGES_REQUIRED]`, nothing else on that line.\n\n';

function previousSteps(state: WorkflowState, upTo: number): string {
  const done = state.steps.filter((st) => st.n < upTo && st.done);
  if (done.length === 0) return NONE;
  return done
    .map((st) => `- Step ${st.n}: ${st.title}${st.commit ? ` (commit ${st.commit.slice(0, 7)})` : ' (no changes)'}`)
    .join('\n');
}

/** `maxAttempts`: 1 + `[test] max_retries`, shown to the planner on a retry. */
export async function buildTurnPrompt(
  prompts: Prompts,
  files: WorkflowFiles,
  s: WorkflowState,
  action: Action,
  maxAttempts = 4,
): Promise<string> {
  const prompt = await basePrompt(prompts, files, s, action, maxAttempts);
  // A note the core added to this round (the person's message after an interruption, the planner's answer the
  // reviewer reads again): after the task, so the task's own answer format still comes first.
  return 'note' in action && action.note ? `${prompt}\n\n${action.note}\n` : prompt;
}

async function basePrompt(
  prompts: Prompts,
  files: WorkflowFiles,
  s: WorkflowState,
  action: Action,
  maxAttempts: number,
): Promise<string> {
  if ('answer' in action && action.answer) {
    return `The person answered your question:\n\n${action.answer}\n\nContinue with the task you were given, and give your complete answer in the form it asked for.`;
  }
  switch (action.kind) {
    case 'refine':
      return prompts.render('refine_goal', {
        goal: s.goal,
        conversation: s.refinedGoal ? `Your previous restatement of the goal:\n\n${s.refinedGoal}` : NONE,
        message: action.message,
      });
    case 'write_plan':
      return prompts.render('write_plan', { goal: s.goal, refined_goal: s.refinedGoal ?? NONE });
    case 'review': {
      const text = await prompts.render('review_plan', {
        goal: s.goal,
        plan_content: (await files.readPlan()) ?? NONE,
        iteration: s.iteration + 1,
        max_iterations: s.maxIterations,
        previous_comments: s.iteration > 0 ? ((await files.readComments()) ?? NONE) : NONE,
        ledger: ledgerForReviewer(s.ledger, PLAN_SCOPE),
      });
      return action.reask ? REASK + text : text;
    }
    case 'respond':
      return prompts.render('respond_comments', {
        goal: s.goal,
        plan_content: (await files.readPlan()) ?? NONE,
        comments_content: (await files.readComments()) ?? NONE,
        iteration: s.iteration,
        ledger: ledgerForPlanner(s.ledger, PLAN_SCOPE),
      });
    case 'code_review':
      return codeReviewPrompt(prompts, files, s, action);
    case 'code_fix':
      return prompts.render('code_fix_steps', {
        goal: s.goal,
        plan_content: (await files.readPlan()) ?? NONE,
        comments: s.codeReview?.comments ?? NONE,
        round: s.codeReview?.round ?? 1,
        ledger: ledgerForPlanner(s.ledger, codeScope(null)),
      });
    case 'execute_step': {
      const step = s.steps.find((st) => st.n === action.step);
      if (action.review) {
        return prompts.render('fix_code_review', {
          step_number: action.step,
          step_title: step?.title ?? `step ${action.step}`,
          attempt: action.attempt ?? 2,
          comments: action.review,
          ledger: ledgerForPlanner(s.ledger, codeScope(action.step)),
        });
      }
      if (action.feedback) {
        return prompts.render('fix_step', {
          step_number: action.step,
          step_title: step?.title ?? `step ${action.step}`,
          attempt: action.attempt ?? 2,
          max_attempts: maxAttempts,
          test_command: s.stepRun?.testCommand ?? NONE,
          test_output: action.feedback,
        });
      }
      return prompts.render('execute_step', {
        goal: s.goal,
        plan_content: (await files.readPlan()) ?? NONE,
        step_number: action.step,
        step_title: step?.title ?? `step ${action.step}`,
        previous_steps: previousSteps(s, action.step),
        // In final mode the comments are set only once the run's code review asked for changes: every step run from
        // then on is one of its fix steps.
        code_review: (s.codeReview?.mode === 'final' ? s.codeReview.comments : null) ?? NONE,
      });
    }
    case 'ask_test_command': {
      const step = s.steps.find((st) => st.n === action.step);
      return prompts.render('test_command', {
        step_number: action.step,
        step_title: step?.title ?? `step ${action.step}`,
      });
    }
    case 'commit_step':
    case 'run_tests':
    case 'rollback_step':
      throw new Error(`${action.kind} is agent-collab's own work and has no prompt`);
  }
}

/** The code reviewer's prompt: the diff the engine took for this review (state.codeReview.diff), and the tests. */
async function codeReviewPrompt(
  prompts: Prompts,
  files: WorkflowFiles,
  s: WorkflowState,
  action: Extract<Action, { kind: 'code_review' }>,
): Promise<string> {
  const cr = s.codeReview;
  const step = action.step === null ? null : s.steps.find((st) => st.n === action.step);
  const run = s.stepRun;
  const tests =
    action.step === null
      ? cr?.tests.join('\n') || NONE
      : run?.testResult === 'passed'
        ? `\`${run.testCommand ?? ''}\` passed`
        : run?.testResult === 'none'
          ? 'no test command: not tested'
          : NONE;
  const text = await prompts.render('review_code', {
    goal: s.goal,
    plan_content: (await files.readPlan()) ?? NONE,
    scope:
      action.step === null
        ? "the whole run's changes since its first step"
        : `the change of step ${action.step} (${step?.title ?? ''}), before it is committed`,
    diff: cr?.diff?.trim() ? cr.diff : '(no changes)',
    test_results: tests,
    round: (cr?.round ?? 0) + 1,
    max_rounds: cr?.limit ?? 1,
    previous_comments: cr?.comments ?? NONE,
    ledger: ledgerForReviewer(s.ledger, codeScope(action.step)),
  });
  return action.reask ? REASK + text : text;
}

/** A new session's first prompt after the old one was lost: the context from the files, then the task. */
export async function recoveryPrompt(
  prompts: Prompts,
  files: WorkflowFiles,
  s: WorkflowState,
  task: string,
): Promise<string> {
  return prompts.render('recover_context', {
    goal: s.goal,
    plan_content: (await files.readPlan()) ?? NONE,
    comments_content: (await files.readComments()) ?? NONE,
    phase: s.phase,
    task,
  });
}
