// The code review's entry points (issue 19): when the reviewer reads the code — the run's diff after its last step
// ("final") or each step's diff before its commit ("each") — and the small pure helpers around it. What its verdict
// leads to is code-review-loop.ts.
import { schedule } from './approval.js';
import type { Effect } from './events.js';
import { truncateAtWord } from './plan-steps.js';
import type { TransitionOptions, TransitionResult } from './transition-rules.js';
import type { CodeReviewState, StepRun, WorkflowState } from './types.js';

/** A run's code review as the options set it up at goal_ready; null when `[review] code = "off"`. */
export function initialCodeReview(opts: TransitionOptions['codeReview']): CodeReviewState | null {
  if (!opts || opts.mode === 'off') return null;
  return {
    mode: opts.mode,
    maxRounds: opts.maxRounds,
    limit: opts.maxRounds,
    round: 0,
    step: null,
    baseTree: null,
    diff: null,
    comments: null,
    tests: [],
    approved: false,
  };
}

/** The run's last step is done: the final review has not approved the code yet. */
export function wantsFinalReview(s: WorkflowState): boolean {
  return s.codeReview?.mode === 'final' && !s.codeReview.approved;
}

/** A step's tests passed: its diff is reviewed before its commit. */
export function wantsStepReview(s: WorkflowState): boolean {
  return s.codeReview?.mode === 'each';
}

/**
 * Puts the code before the reviewer: the run's diff (`step` null) or the step's. A step reviewed for the first time
 * starts its own count of rounds, under the configured cap.
 */
export function startCodeReview(s: WorkflowState, step: number | null, effects: Effect[]): TransitionResult {
  const cr = s.codeReview as CodeReviewState;
  const fresh = step !== null && cr.step !== step;
  const codeReview: CodeReviewState = fresh
    ? { ...cr, step, round: 0, limit: cr.maxRounds, comments: null, diff: null }
    : { ...cr, step };
  const what = step === null ? "the run's changes" : `step ${step}'s changes`;
  return schedule({ ...s, phase: 'CODE_REVIEW', codeReview, unclearCount: 0 }, { kind: 'code_review', step }, [
    ...effects,
    { type: 'log', title: `Code review of ${what} (round ${codeReview.round + 1} of at most ${codeReview.limit})` },
  ]);
}

/** One line on a committed step's tests, for the final review's "test results". */
export function testLine(step: number, run: StepRun | null): string {
  if (!run) return `Step ${step}: tests not run`;
  switch (run.testResult) {
    case 'passed':
      return `Step ${step}: \`${run.testCommand ?? ''}\` passed (attempt ${run.attempt})`;
    case 'none':
      return `Step ${step}: no test command; committed untested`;
    case 'failed':
      return `Step ${step}: \`${run.testCommand ?? ''}\` failed; committed by the person's choice`;
    default:
      return `Step ${step}: tests not run`;
  }
}

const ITEM_RE = /^\s{0,3}(?:\d+[.)]|[-*+])\s+(?:\[[ xX]\]\s*)?(.+)$/;
const HEADING_RE = /^#{1,6}\s+(.*)$/;
const MAX_FIX_STEPS = 20;

/**
 * The fix steps in the planner's answer: the list items under a heading that names steps (`## Fix steps`), else
 * every top-level list item. Each becomes one line (a plan step's title).
 */
export function parseFixSteps(text: string): string[] {
  const lines = text.split(/\r?\n/);
  let inSection = false;
  let sawSection = false;
  const inSteps: string[] = [];
  const all: string[] = [];
  for (const line of lines) {
    const h = HEADING_RE.exec(line);
    if (h) {
      inSection = /step/i.test(h[1] ?? '');
      sawSection ||= inSection;
      continue;
    }
    const m = ITEM_RE.exec(line);
    if (!m) continue;
    const title = truncateAtWord((m[1] ?? '').replace(/\s+/g, ' ').trim(), 200);
    if (!title) continue;
    all.push(title);
    if (inSection) inSteps.push(title);
  }
  return (sawSection ? inSteps : all).slice(0, MAX_FIX_STEPS);
}

/** How a fix step's title says where it comes from. */
export function fixStepTitle(title: string, round: number): string {
  return `${title} (from code review, round ${round})`;
}
