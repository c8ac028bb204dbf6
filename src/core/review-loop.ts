// The review loop's outcomes: an approved plan, and the reviewer's answer read as a verdict.
import { proceed, schedule, settle } from './approval.js';
import type { Effect } from './events.js';
import type { TransitionResult } from './transition-rules.js';
import type { WorkflowState } from './types.js';
import { parseVerdict } from './verdict.js';
import { afterReview } from './ledger.js';
import { disagree, PLAN_SCOPE } from './ledger-state.js';
import { stagnation } from './stagnation.js';

export function approve(s: WorkflowState, effects: Effect[], how: string): TransitionResult {
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

export function onReviewAnswer(s: WorkflowState, text: string): TransitionResult {
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

export function applyVerdict(
  s: WorkflowState,
  verdict: 'APPROVED' | 'CHANGES_REQUIRED',
  text: string,
  marker: boolean,
): TransitionResult {
  const iteration = s.iteration + 1;
  const outcome = afterReview(s.ledger, PLAN_SCOPE, iteration, text, verdict === 'APPROVED');
  const next: WorkflowState = {
    ...s,
    iteration,
    lastVerdict: verdict,
    unclearCount: 0,
    inflight: null,
    ledger: outcome.ledger,
  };
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
  const stuck = stagnation(s.ledger, outcome, PLAN_SCOPE, iteration);
  if (stuck) return disagree({ ...next, phase: 'REVIEW' }, PLAN_SCOPE, iteration, stuck, effects);
  return schedule({ ...next, phase: 'RESPOND' }, { kind: 'respond' }, effects);
}
