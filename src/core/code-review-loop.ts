// What a code review's verdict leads to (issue 19): approved → the step's commit (each) or the run's end (final);
// changes required → fix work (another attempt of the step carrying the comments, or fix steps the planner appends
// to plan.md), reviewed again, up to the cap; then the person decides. Pure, like transition.ts.
import { proceed, schedule, settle, waitForPerson } from './approval.js';
import { fixStepTitle, parseFixSteps, startCodeReview } from './code-review.js';
import type { ChoiceId } from './decisions.js';
import type { Effect, EngineEvent } from './events.js';
import { commitNow, finishExecution } from './execution.js';
import { stopToGoal, type TransitionResult } from './transition-rules.js';
import type { Action, Awaiting, CodeReviewState, StepRun, Verdict, WorkflowState } from './types.js';
import { parseVerdict } from './verdict.js';
import { afterReview, quietFor } from './ledger.js';
import { codeScope, disagree } from './ledger-state.js';
import { stagnation } from './stagnation.js';

type CodeReviewAction = Extract<Action, { kind: 'code_review' }>;
type Reject = (why: string) => never;

/** Lines of the reviewer's answer kept in log.md. */
const LOG_LINES = 200;
/** The comments kept in state.json and fed to the fix work. */
const COMMENTS_MAX = 20_000;

function what(step: number | null): string {
  return step === null ? "the run's changes" : `step ${step}`;
}

export function onCodeDiff(
  s: WorkflowState,
  e: Extract<EngineEvent, { type: 'code_diff' }>,
  reject: Reject,
): TransitionResult {
  if (s.inflight?.kind !== 'code_review' || s.inflight.step !== e.step || !s.codeReview)
    reject(`no code review of ${what(e.step)} is running`);
  const cr = s.codeReview as CodeReviewState;
  return {
    state: { ...s, codeReview: { ...cr, diff: e.diff } },
    effects: [
      {
        type: 'log',
        title: `Diff of ${what(e.step)} given to the reviewer (${e.files.length} file(s))`,
        lines: e.files,
      },
    ],
  };
}

export function onCodeReviewAnswer(s: WorkflowState, action: CodeReviewAction, text: string): TransitionResult {
  const parsed = parseVerdict(text);
  const cr = s.codeReview;
  if (!cr) return finishOrCommit(s, action.step, []);
  if (parsed.kind === 'unparseable') {
    const notice: Effect = {
      type: 'notify',
      notice: { kind: 'code_verdict', round: cr.round + 1, step: action.step, verdict: 'UNCLEAR', marker: false },
    };
    const logged: Effect = { type: 'log', title: `Code reviewer's answer unclear (${parsed.reason})` };
    const reask: Action = { kind: 'code_review', step: action.step, reask: true };
    // As for plans: re-asked once at once (the same round), then the person decides.
    if (s.unclearCount === 0) return proceed({ ...s, unclearCount: 1 }, reask, [notice, logged]);
    return {
      state: settle({
        ...s,
        inflight: null,
        unclearCount: s.unclearCount + 1,
        awaiting: { kind: 'unclear_verdict', text, action: reask },
      }),
      effects: [notice, logged],
    };
  }
  const verdict: Verdict = parsed.kind === 'approved' ? 'APPROVED' : 'CHANGES_REQUIRED';
  return applyCodeVerdict(s, action.step, verdict, text, parsed.kind === 'approved' || parsed.marker);
}

/** Approved: the step is committed (each) or the run ends (final). */
export function finishOrCommit(s: WorkflowState, step: number | null, effects: Effect[]): TransitionResult {
  const cleared: WorkflowState = { ...s, inflight: null, awaiting: null, unclearCount: 0 };
  if (step !== null) return commitNow({ ...cleared, phase: 'EXECUTE' }, step, effects);
  const cr = s.codeReview;
  return finishExecution({ ...cleared, codeReview: cr ? { ...cr, approved: true } : null }, effects);
}

export function applyCodeVerdict(
  s: WorkflowState,
  step: number | null,
  verdict: Verdict,
  text: string,
  marker: boolean,
): TransitionResult {
  const cr = s.codeReview as CodeReviewState;
  const round = cr.round + 1;
  const effects: Effect[] = [
    { type: 'notify', notice: { kind: 'code_verdict', round, step, verdict, marker } },
    {
      type: 'log',
      title: `Code review of ${what(step)}, round ${round}: ${verdict === 'APPROVED' ? 'approved' : 'changes required'}`,
      lines: text.trim().split('\n').slice(0, LOG_LINES),
    },
  ];
  const scope = codeScope(step);
  const outcome = afterReview(s.ledger, scope, round, text, verdict === 'APPROVED');
  if (verdict === 'APPROVED')
    return finishOrCommit({ ...s, codeReview: { ...cr, round }, ledger: outcome.ledger }, step, effects);
  const comments = text.length > COMMENTS_MAX ? `${text.slice(0, COMMENTS_MAX)}\n[… comments cut …]` : text;
  const next: WorkflowState = {
    ...s,
    inflight: null,
    unclearCount: 0,
    codeReview: { ...cr, round, comments },
    ledger: outcome.ledger,
  };
  if (round >= cr.limit) {
    return {
      state: waitForPerson({ ...next, phase: 'CODE_REVIEW' }, { kind: 'code_review_cap', round, step }),
      effects: [
        ...effects,
        { type: 'log', title: `Code review cap reached (${round} round(s)); waiting for the person to decide` },
      ],
    };
  }
  const stuck = stagnation(s.ledger, outcome, scope, round);
  if (stuck) return disagree({ ...next, phase: 'CODE_REVIEW' }, scope, round, stuck, effects);
  return fixWork(next, step, effects);
}

/** The work that answers the comments: the planner's fix steps (final), or the step's next attempt (each). */
export function fixWork(s: WorkflowState, step: number | null, effects: Effect[]): TransitionResult {
  const comments = s.codeReview?.comments ?? '';
  if (step === null) return schedule(settle({ ...s, phase: 'CODE_REVIEW' }), { kind: 'code_fix' }, effects);
  const run = s.stepRun as StepRun;
  const attempt = run.attempt + 1;
  const next: WorkflowState = settle({
    ...s,
    phase: 'EXECUTE',
    stepRun: { ...run, attempt, reviewAttempts: (run.reviewAttempts ?? 0) + 1, denials: 0, feedback: null },
  });
  return schedule(next, { kind: 'execute_step', step, attempt, review: comments }, effects);
}

/** The planner's fix steps are appended to plan.md and executed like the others. */
export function onCodeFixAnswer(s: WorkflowState, text: string): TransitionResult {
  const cr = s.codeReview as CodeReviewState;
  const titles = parseFixSteps(text).map((t) => fixStepTitle(t, cr.round));
  // No fix step (the planner disagrees with every comment, or listed none): asking again would give the same
  // answer, so the person decides as at the cap, reading the planner's answer.
  if (titles.length === 0) {
    const answer = text.length > COMMENTS_MAX ? `${text.slice(0, COMMENTS_MAX)}\n[… answer cut …]` : text;
    return {
      state: waitForPerson(
        { ...s, phase: 'CODE_REVIEW' },
        { kind: 'code_review_cap', round: cr.round, step: null, noFixSteps: answer },
      ),
      effects: [
        {
          type: 'log',
          title: 'The planner listed no fix steps; waiting for the person to decide',
          lines: text.trim().split('\n').slice(0, LOG_LINES),
        },
      ],
    };
  }
  const first = s.steps.length + 1;
  const steps = [...s.steps, ...titles.map((title, i) => ({ n: first + i, title, done: false }))];
  const next: WorkflowState = settle({
    ...s,
    inflight: null,
    phase: 'EXECUTE',
    steps,
    currentStep: first,
    stepRun: null,
  });
  return schedule(next, { kind: 'execute_step', step: first }, [
    { type: 'append_steps', titles },
    {
      type: 'log',
      title: `Planner added ${titles.length} fix step(s) from code review round ${cr.round}`,
      lines: titles.map((t, i) => `${first + i}. ${t}`),
    },
  ]);
}

/** The planner's answer when it listed no fix steps, framed for the reviewer's next code review. */
function plannersAnswerNote(answer: string): string {
  return (
    'The planner listed no fix steps for your previous comments; its answer is below. Read the code again with it ' +
    `in mind: withdraw the comments it settles, and keep (with why) those that still stand.\n\n<planner_answer>\n${answer.trim()}\n</planner_answer>`
  );
}

type Waiting<K extends Awaiting['kind']> = Extract<Awaiting, { kind: K }>;

/** The person's choice once the code review reached its cap. */
export function onCodeCapChoice(
  s: WorkflowState,
  choice: ChoiceId<'code_review_cap'>,
  w: Waiting<'code_review_cap'>,
  rounds: number | undefined,
  reject: Reject,
): TransitionResult {
  const cleared: WorkflowState = { ...s, awaiting: null };
  const cr = s.codeReview as CodeReviewState;
  switch (choice) {
    case 'accept':
      return finishOrCommit(cleared, w.step, [
        { type: 'log', title: `Person accepted ${what(w.step)} as it is (code review round ${cr.round})` },
      ]);
    case 'continue': {
      const more = rounds ?? 1;
      if (!Number.isInteger(more) || more < 1) reject('continue needs a whole number of rounds ≥ 1');
      const next: WorkflowState = {
        ...cleared,
        codeReview: { ...cr, limit: cr.round + more },
        // The rounds the person asked for are not cut short by the stagnation stop (core/stagnation.ts).
        ledger: quietFor(s.ledger, codeScope(w.step), cr.round + more),
      };
      const allowed: Effect = { type: 'log', title: `Person allowed ${more} more code review round(s)` };
      // The planner listed no fix steps (it disputes the comments): asking it again would give the same answer, so
      // the reviewer reads the code again with the planner's answer and settles or keeps its comments.
      if (w.noFixSteps !== undefined) return startCodeReview(next, w.step, [allowed], plannersAnswerNote(w.noFixSteps));
      return fixWork(next, w.step, [allowed]);
    }
    case 'edit':
      return {
        state: { ...cleared, awaiting: { kind: 'code_edit', step: w.step } },
        effects: [{ type: 'log', title: 'Person is editing the code by hand' }],
      };
    case 'stop':
      return stopToGoal(s, `Stopped at the code review of ${what(w.step)}; back to goal refinement (plan kept)`);
  }
}

/** The person edited the code: its diff goes to the reviewer again (one more round allowed). */
export function onCodeEdited(s: WorkflowState, w: Waiting<'code_edit'>): TransitionResult {
  const cr = s.codeReview as CodeReviewState;
  const next: WorkflowState = {
    ...s,
    awaiting: null,
    // In final mode the person's edits are not committed: from now on the review reads the working tree too.
    codeReview: { ...cr, limit: Math.max(cr.limit, cr.round + 1), ...(w.step === null ? { edited: true } : {}) },
  };
  return startCodeReview(next, w.step, [{ type: 'log', title: 'Code edited by the person; sent to review' }]);
}
