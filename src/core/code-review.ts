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
export function startCodeReview(
  s: WorkflowState,
  step: number | null,
  effects: Effect[],
  note?: string,
): TransitionResult {
  const cr = s.codeReview as CodeReviewState;
  const fresh = step !== null && cr.step !== step;
  const codeReview: CodeReviewState = fresh
    ? { ...cr, step, round: 0, limit: cr.maxRounds, comments: null, diff: null }
    : { ...cr, step };
  const what = step === null ? "the run's changes" : `step ${step}'s changes`;
  const action = note ? { kind: 'code_review' as const, step, note } : { kind: 'code_review' as const, step };
  return schedule({ ...s, phase: 'CODE_REVIEW', codeReview, unclearCount: 0 }, action, [
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

const ITEM_RE = /^(\s*)(?:\d+[.)]|[-*+])\s+(?:\[[ xX]\]\s*)?(.+)$/;
const HEADING_RE = /^#{1,6}\s+(.*)$/;
/** A heading over the fix steps: "Fix steps", "Fixes", "Steps"… (not "Responses" nor "Comments"). */
const FIX_HEADING_RE = /\b(?:fix|step)/i;
const MAX_FIX_STEPS = 20;

interface Item {
  indent: number;
  title: string;
}

/** The top-level items of a list: the least indented ones (a nested bullet details the step above it). */
function topLevel(items: Item[]): string[] {
  const least = Math.min(...items.map((i) => i.indent));
  return items.filter((i) => i.indent === least).map((i) => i.title);
}

/**
 * The fix steps in the planner's answer: the top-level list items under a heading that names fixes or steps
 * (`## Fix steps`), else the top-level items of an answer without headings. Each becomes one line (a step's title).
 */
export function parseFixSteps(text: string): string[] {
  const lines = text.split(/\r?\n/);
  let inSection = false;
  let sawHeading = false;
  const inSteps: Item[] = [];
  const all: Item[] = [];
  for (const line of lines) {
    const h = HEADING_RE.exec(line);
    if (h) {
      inSection = FIX_HEADING_RE.test(h[1] ?? '');
      sawHeading = true;
      continue;
    }
    const m = ITEM_RE.exec(line);
    if (!m) continue;
    const title = truncateAtWord((m[2] ?? '').replace(/\s+/g, ' ').trim(), 200);
    if (!title) continue;
    const item = { indent: (m[1] ?? '').replace(/\t/g, '    ').length, title };
    all.push(item);
    if (inSection) inSteps.push(item);
  }
  const items = inSteps.length > 0 ? inSteps : sawHeading ? [] : all;
  return items.length === 0 ? [] : topLevel(items).slice(0, MAX_FIX_STEPS);
}

/** How a fix step's title says where it comes from. */
export function fixStepTitle(title: string, round: number): string {
  return `${title} (from code review, round ${round})`;
}
