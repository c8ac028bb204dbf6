// A step commit held for the person before it is made: the agent's hunks meet the person's own edits, or the change
// is over the size limits. What each choice does (core/decisions.ts). Pure, like execution.ts.
import type { ChoiceId } from './decisions.js';
import type { EngineEvent } from './events.js';
import { waitForPerson } from './approval.js';
import { commitNow, doneUncommitted, newStepRun, onStepChoice } from './execution.js';
import type { TransitionResult } from './transition.js';
import type { Awaiting, CommitAllowance, LargeChange, WorkflowState } from './types.js';

type Ev<T extends EngineEvent['type']> = Extract<EngineEvent, { type: T }>;
type Reject = (why: string) => never;
type Waiting<K extends Awaiting['kind']> = Extract<Awaiting, { kind: K }>;

/** "12.3 MB" */
export function formatBytes(n: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${n} bytes` : `${v.toFixed(1)} ${units[u]}`;
}

/** One line per reason the change is large: each big file with its size, and the file count when over it. */
export function describeLarge(l: LargeChange): string[] {
  const lines = l.files.map((f) => `${f.path}: ${formatBytes(f.bytes)} (over ${formatBytes(l.maxFileBytes)})`);
  if (l.count > l.maxFiles) lines.push(`${l.count} files (over ${l.maxFiles})`);
  return lines;
}

function committing(s: WorkflowState, step: number, reject: Reject): string {
  if (s.inflight?.kind !== 'commit_step' || s.inflight.step !== step) reject(`step ${step} is not being committed`);
  return (s.inflight as Extract<WorkflowState['inflight'], { kind: 'commit_step' }>).summary;
}

export function onHunksOverlap(s: WorkflowState, e: Ev<'hunks_overlap'>, reject: Reject): TransitionResult {
  const summary = committing(s, e.step, reject);
  return {
    state: waitForPerson(s, { kind: 'hunks_overlap', step: e.step, summary, files: e.files }),
    effects: [
      {
        type: 'log',
        title: `Step ${e.step} not committed: the agent changed lines you had changed too`,
        lines: e.files,
      },
    ],
  };
}

export function onLargeChange(s: WorkflowState, e: Ev<'large_change'>, reject: Reject): TransitionResult {
  const summary = committing(s, e.step, reject);
  return {
    state: waitForPerson(s, { kind: 'large_change', step: e.step, summary, large: e.large }),
    effects: [
      { type: 'log', title: `Step ${e.step} not committed: over the size limits`, lines: describeLarge(e.large) },
    ],
  };
}

/** The step's run with `what` allowed for its commit from now on. */
function allow(s: WorkflowState, step: number, what: CommitAllowance): WorkflowState {
  const run = s.stepRun?.step === step ? s.stepRun : newStepRun(s, step, null, '');
  const allowed = [...new Set([...(run.allowed ?? []), what])];
  return { ...s, awaiting: null, stepRun: { ...run, allowed } };
}

/** `stop` is handled by the caller (back to goal refinement). */
export function onOverlapChoice(
  s: WorkflowState,
  choice: Exclude<ChoiceId<'hunks_overlap'>, 'stop'>,
  w: Waiting<'hunks_overlap'>,
): TransitionResult {
  if (choice === 'leave')
    return doneUncommitted(
      s,
      w.step,
      `the agent changed lines you had changed too (${w.files.join(', ')}); the changes are left in the working tree`,
    );
  return commitNow(allow(s, w.step, 'overlap'), w.step, [
    { type: 'log', title: `Person commits step ${w.step} with their own edits in these files`, lines: w.files },
  ]);
}

export function onLargeChoice(
  s: WorkflowState,
  choice: ChoiceId<'large_change'>,
  w: Waiting<'large_change'>,
): TransitionResult {
  switch (choice) {
    case 'commit':
      return commitNow(allow(s, w.step, 'large'), w.step, [
        {
          type: 'log',
          title: `Person commits step ${w.step} although it is over the limits`,
          lines: describeLarge(w.large),
        },
      ]);
    case 'leave':
      return doneUncommitted(
        s,
        w.step,
        `over the size limits (${describeLarge(w.large).join('; ')}); left uncommitted`,
      );
    case 'rollback':
      return onStepChoice({ ...s, awaiting: null }, 'rollback', {
        kind: 'step_failed',
        step: w.step,
        attempt: s.stepRun?.attempt ?? 1,
        category: 'agent_error',
        message: describeLarge(w.large).join('; '),
        rolledBack: false,
      });
  }
}
