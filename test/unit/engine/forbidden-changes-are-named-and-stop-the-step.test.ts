// What a write turn must leave alone, compared before and after in words a person reads, and the state machine once
// the agent changed it: the step stops uncommitted, waits for the person, and goes on the way the person chose.
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../src/core/events.js';
import { newStepRun } from '../../../src/core/execution.js';
import { describeRepoChanges, type RepoSnapshot } from '../../../src/core/repo-invariants.js';
import { transition } from '../../../src/core/transition.js';
import type { Action, StepInfo, WorkflowState } from '../../../src/core/types.js';
import { OPTS, stateIn } from '../../helpers/states.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);

const before: RepoSnapshot = {
  branch: 'refs/heads/main',
  head: A,
  refs: { 'refs/heads/main': A, 'refs/tags/v1': A },
  worktrees: ['/repo'],
  stash: [C],
  files: { '.agent-collab/plan.md': 'h1', '.agent-collab/config.toml': 'h2' },
  gitFiles: { '.git/config': 'g1' },
};

describe('the changes between two snapshots, in words', () => {
  it('the same snapshot: no change', () => {
    expect(describeRepoChanges(before, structuredClone(before))).toEqual([]);
  });

  it('a new branch checked out and committed to', () => {
    const after: RepoSnapshot = {
      ...before,
      branch: 'refs/heads/sneaky',
      head: B,
      refs: { ...before.refs, 'refs/heads/sneaky': B },
    };
    expect(describeRepoChanges(before, after)).toEqual([
      "branch 'sneaky' checked out (was on branch 'main')",
      'HEAD moved from aaaaaaa to bbbbbbb',
      "branch 'sneaky' created",
    ]);
  });

  it('a commit or a reset on the same branch is said once, as HEAD moving', () => {
    const after: RepoSnapshot = { ...before, head: B, refs: { ...before.refs, 'refs/heads/main': B } };
    expect(describeRepoChanges(before, after)).toEqual(['HEAD moved from aaaaaaa to bbbbbbb']);
  });

  it('a detached HEAD, a deleted tag, a moved branch elsewhere, a worktree, the stash, git’s config and hooks, agent-collab’s files', () => {
    const after: RepoSnapshot = {
      branch: null,
      head: A,
      refs: { 'refs/heads/main': A, 'refs/heads/other': B, 'refs/remotes/origin/main': B },
      worktrees: ['/repo', '/tmp/wt'],
      stash: [B],
      files: { '.agent-collab/plan.md': 'changed', '.agent-collab/prompts/x.md': 'new' },
      gitFiles: { '.git/config': 'g2', '.git/hooks/pre-commit': 'g3' },
    };
    expect(describeRepoChanges({ ...before, refs: { ...before.refs, 'refs/heads/other': A } }, after)).toEqual([
      "HEAD detached (was on branch 'main')",
      "branch 'other' moved from aaaaaaa to bbbbbbb",
      "remote-tracking branch 'origin/main' created",
      "tag 'v1' deleted (it was at aaaaaaa)",
      'worktree added at /tmp/wt',
      '1 stash entry added',
      '1 stash entry dropped',
      '.git/config changed',
      '.git/hooks/pre-commit created',
      '.agent-collab/config.toml deleted',
      '.agent-collab/plan.md changed',
      '.agent-collab/prompts/x.md created',
    ]);
  });

  it('stash entries only reordered are said so', () => {
    expect(describeRepoChanges({ ...before, stash: [A, B] }, { ...before, stash: [B, A] })).toEqual([
      'stash entries reordered',
    ]);
  });
});

const steps: StepInfo[] = [
  { n: 1, title: 'add greet()', done: false },
  { n: 2, title: 'add tests', done: false },
];

function at(inflight: Action | null, extra: Partial<WorkflowState> = {}): WorkflowState {
  const base = stateIn('EXECUTE', { steps, currentStep: 1, mode: 'auto' });
  const run = { ...newStepRun(base, 1, 'tree0', '2026-01-01T00:00:00Z'), feedback: 'old test output' };
  return { ...base, stepRun: run, inflight, ...extra };
}

const tripped: EngineEvent = {
  type: 'forbidden_change',
  step: 1,
  attempt: 1,
  changes: ["branch 'sneaky' created"],
  undone: ["branch 'sneaky' deleted (it was at bbbbbbb)"],
};
const step = (s: WorkflowState, e: EngineEvent) => transition(s, e, OPTS);

describe('a forbidden change stops the step for the person', () => {
  it.each([
    ['after the write turn', { kind: 'execute_step', step: 1 } as Action],
    ['after the tests', { kind: 'run_tests', step: 1, attempt: 1 } as Action],
    ['before the commit', { kind: 'commit_step', step: 1, summary: 'add greet()' } as Action],
  ])('%s: no commit, manual mode, the changes and what was undone are asked about and logged', (_when, inflight) => {
    const r = step(at(inflight), tripped);
    expect(r.state.inflight).toBeNull();
    expect(r.state.mode).toBe('manual');
    expect(r.state.awaiting).toEqual({
      kind: 'forbidden_change',
      step: 1,
      attempt: 1,
      changes: ["branch 'sneaky' created"],
      undone: ["branch 'sneaky' deleted (it was at bbbbbbb)"],
    });
    expect(r.effects.map((e) => e.type)).toEqual(['log']);
    expect(r.effects.some((e) => e.type === 'commit_step' || e.type === 'mark_step_done')).toBe(false);
    expect(r.state.steps.every((s) => !s.done)).toBe(true);
  });

  it('is refused when the step is not at a write turn, its tests or its commit', () => {
    expect(() => step(at({ kind: 'rollback_step', step: 1 }), tripped)).toThrow(/write turn, its tests or its commit/);
    expect(() => step(at(null), tripped)).toThrow(/not being executed/);
    expect(() => step(at({ kind: 'execute_step', step: 2 }), tripped)).toThrow(/not being executed/);
  });

  const waiting = (): WorkflowState => step(at({ kind: 'execute_step', step: 1 }), tripped).state;

  it('retry: the step runs again as its next attempt, from the step prompt (no old test output fed back)', () => {
    const r = step(waiting(), { type: 'decide', on: 'forbidden_change', choice: 'retry' });
    expect(r.state.inflight).toEqual({ kind: 'execute_step', step: 1, attempt: 2 });
    expect(r.state.stepRun?.attempt).toBe(2);
    expect(r.state.awaiting).toBeNull();
  });

  it('skip: the step is marked skipped and the next one is up', () => {
    const r = step(waiting(), { type: 'decide', on: 'forbidden_change', choice: 'skip' });
    expect(r.state.steps[0]).toMatchObject({ n: 1, skipped: true });
    expect(r.effects).toContainEqual({ type: 'mark_step_skipped', step: 1 });
    expect(r.state.awaiting).toEqual({ kind: 'go', action: { kind: 'execute_step', step: 2 } });
  });

  it('rollback: the step’s files are rolled back', () => {
    const r = step(waiting(), { type: 'decide', on: 'forbidden_change', choice: 'rollback' });
    expect(r.state.inflight).toEqual({ kind: 'rollback_step', step: 1 });
  });

  it('stop: back to goal refinement with the plan kept', () => {
    const r = step(waiting(), { type: 'decide', on: 'forbidden_change', choice: 'stop' });
    expect(r.state.phase).toBe('REFINE_GOAL');
    expect(r.state.stepRun).toBeNull();
  });
});
