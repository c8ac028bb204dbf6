// What an agent's write turn must leave as it was — HEAD, the branch, every ref, the worktrees, the stash and
// agent-collab's own files — compared before and after the turn in words a person reads, and what the run does when
// something changed: the step stops uncommitted and waits for the person. Pure; taking and restoring the snapshots
// is adapters/git/repo-state.ts's work.
import { waitForPerson } from './approval.js';
import type { ChoiceId } from './decisions.js';
import type { EngineEvent } from './events.js';
import { onStepChoice } from './execution.js';
import type { TransitionResult } from './transition.js';
import type { Awaiting, WorkflowState } from './types.js';

export interface RepoSnapshot {
  /** The branch HEAD is on ("refs/heads/main"), or null when HEAD is detached. */
  branch: string | null;
  /** The commit HEAD points at, or null on a branch with no commits yet. */
  head: string | null;
  /** Every ref but refs/stash and remote-tracking refs (`git for-each-ref`): name → object id. */
  refs: Record<string, string>;
  /** The path of every worktree (`git worktree list`), the main one included. */
  worktrees: string[];
  /** The stash entries' commits, newest first. */
  stash: string[];
  /** agent-collab's files the turn must not touch, by the path shown to the person → a hash of their content. */
  files: Record<string, string>;
  /** git's config and hooks (they name commands agent-collab's own git calls would run), the same way. */
  gitFiles: Record<string, string>;
}

const short = (oid: string | null): string => (oid ? oid.slice(0, 7) : '(no commit)');

/** "branch 'main'", "tag 'v1'", "remote-tracking branch 'origin/main'", or "ref 'refs/x'". */
export function refLabel(name: string): string {
  const kinds: Array<[string, string]> = [
    ['refs/heads/', 'branch'],
    ['refs/tags/', 'tag'],
    ['refs/remotes/', 'remote-tracking branch'],
  ];
  for (const [prefix, kind] of kinds) if (name.startsWith(prefix)) return `${kind} '${name.slice(prefix.length)}'`;
  return `ref '${name}'`;
}

function headChanges(before: RepoSnapshot, after: RepoSnapshot): string[] {
  const out: string[] = [];
  if (before.branch !== after.branch) {
    if (before.branch && after.branch)
      out.push(`${refLabel(after.branch)} checked out (was on ${refLabel(before.branch)})`);
    else if (before.branch) out.push(`HEAD detached (was on ${refLabel(before.branch)})`);
    else if (after.branch) out.push(`${refLabel(after.branch)} checked out (HEAD was detached)`);
  }
  if (before.head !== after.head) out.push(`HEAD moved from ${short(before.head)} to ${short(after.head)}`);
  return out;
}

function refChanges(before: RepoSnapshot, after: RepoSnapshot): string[] {
  const out: string[] = [];
  const names = [...new Set([...Object.keys(before.refs), ...Object.keys(after.refs)])].sort();
  for (const name of names) {
    const was = before.refs[name];
    const now = after.refs[name];
    if (was === now) continue;
    if (was === undefined) out.push(`${refLabel(name)} created`);
    else if (now === undefined) out.push(`${refLabel(name)} deleted (it was at ${short(was)})`);
    // The branch HEAD stays on moved with HEAD: "HEAD moved" says it already.
    else if (!(name === before.branch && name === after.branch))
      out.push(`${refLabel(name)} moved from ${short(was)} to ${short(now)}`);
  }
  return out;
}

function listChanges(before: readonly string[], after: readonly string[], what: (p: string, added: boolean) => string) {
  return [
    ...after.filter((p) => !before.includes(p)).map((p) => what(p, true)),
    ...before.filter((p) => !after.includes(p)).map((p) => what(p, false)),
  ];
}

function stashChanges(before: readonly string[], after: readonly string[]): string[] {
  const added = after.filter((h) => !before.includes(h)).length;
  const dropped = before.filter((h) => !after.includes(h)).length;
  const out: string[] = [];
  if (added) out.push(`${added} stash entr${added === 1 ? 'y' : 'ies'} added`);
  if (dropped) out.push(`${dropped} stash entr${dropped === 1 ? 'y' : 'ies'} dropped`);
  const kept = after.filter((h) => before.includes(h));
  if (!dropped && kept.join() !== before.join()) out.push('stash entries reordered');
  return out;
}

function fileChanges(before: Record<string, string>, after: Record<string, string>): string[] {
  const out: string[] = [];
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  for (const name of names) {
    const was = before[name];
    const now = after[name];
    if (was === now) continue;
    out.push(`${name} ${was === undefined ? 'created' : now === undefined ? 'deleted' : 'changed'}`);
  }
  return out;
}

/** What differs between the snapshot before a write turn and the one after it, one line per change; [] = nothing. */
export function describeRepoChanges(before: RepoSnapshot, after: RepoSnapshot): string[] {
  return [
    ...headChanges(before, after),
    ...refChanges(before, after),
    ...listChanges(before.worktrees, after.worktrees, (p, added) =>
      added ? `worktree added at ${p}` : `worktree ${p} removed`,
    ),
    ...stashChanges(before.stash, after.stash),
    ...fileChanges(before.gitFiles, after.gitFiles),
    ...fileChanges(before.files, after.files),
  ];
}

type Ev<T extends EngineEvent['type']> = Extract<EngineEvent, { type: T }>;
type Reject = (why: string) => never;
type Waiting = Extract<Awaiting, { kind: 'forbidden_change' }>;

/**
 * The agent changed what it must not, during the step's turn, its tests (they run code the agent wrote) or by the
 * time of the commit. agent-collab has already undone what it could; the step is not committed and waits for the person.
 */
export function onForbiddenChange(s: WorkflowState, e: Ev<'forbidden_change'>, reject: Reject): TransitionResult {
  const at = s.inflight;
  if (s.phase !== 'EXECUTE' || s.currentStep !== e.step || !at || !('step' in at) || at.step !== e.step)
    reject(`step ${e.step} is not being executed`);
  if (at?.kind !== 'execute_step' && at?.kind !== 'run_tests' && at?.kind !== 'commit_step')
    reject(`step ${e.step} is not at a write turn, its tests or its commit`);
  return {
    state: {
      ...waitForPerson(s, {
        kind: 'forbidden_change',
        step: e.step,
        attempt: e.attempt,
        changes: e.changes,
        undone: e.undone,
      }),
      pendingCommand: null,
    },
    effects: [
      {
        type: 'log',
        title: `Step ${e.step} not committed: the agent changed what it must not`,
        lines: [...e.changes, ...e.undone.map((u) => `agent-collab: ${u}`)],
      },
    ],
  };
}

/**
 * The person's choice after a forbidden change; `stop` is handled by the caller. The same moves as a failing step's,
 * except that a retry starts from the step's prompt (there is no failing test output to feed back).
 */
export function onForbiddenChoice(
  s: WorkflowState,
  choice: Exclude<ChoiceId<'forbidden_change'>, 'stop'>,
  w: Waiting,
): TransitionResult {
  // rolledBack: true makes a failing step's retry go without test feedback, which is what this retry wants.
  const asStepFailed = {
    kind: 'step_failed',
    step: w.step,
    attempt: w.attempt,
    category: 'agent_error',
    message: w.changes.join('; '),
    rolledBack: choice === 'retry',
  } as const;
  return onStepChoice({ ...s, awaiting: null }, choice, asStepFailed);
}
