import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../src/core/events.js';
import { InvalidEventError, transition } from '../../../src/core/transition.js';
import type { Phase, WorkflowState } from '../../../src/core/types.js';
import { OPTS, running, stateIn } from '../../helpers/states.js';

const steps = [
  { n: 1, title: 'one', done: false },
  { n: 2, title: 'two', done: false },
];

interface Edge {
  name: string;
  from: WorkflowState;
  event: EngineEvent;
  to: Phase;
  effects?: string[];
}

const ALLOWED: Edge[] = [
  {
    name: 'INIT → REFINE_GOAL on start',
    from: stateIn('INIT', { goal: '' }),
    event: { type: 'start', goal: 'add a flag' },
    to: 'REFINE_GOAL',
    effects: ['log'],
  },
  {
    name: 'REFINE_GOAL → WRITE_PLAN when the goal is ready',
    from: stateIn('REFINE_GOAL', { awaiting: { kind: 'goal' } }),
    event: { type: 'goal_ready' },
    to: 'WRITE_PLAN',
    effects: ['log'],
  },
  {
    name: 'REFINE_GOAL stays while the planner refines',
    from: stateIn('REFINE_GOAL', { awaiting: { kind: 'goal' } }),
    event: { type: 'user_message', text: 'also docs' },
    to: 'REFINE_GOAL',
    effects: ['run_agent'],
  },
  {
    name: 'WRITE_PLAN → REVIEW when the plan is written',
    from: running('WRITE_PLAN', { kind: 'write_plan' }),
    event: {
      type: 'agent_done',
      role: 'planner',
      action: { kind: 'write_plan' },
      text: '# Task: x\n## Steps\n1. [ ] a',
    },
    to: 'REVIEW',
    effects: ['write_plan', 'log'],
  },
  {
    name: 'REVIEW → RESPOND on changes required',
    from: running('REVIEW', { kind: 'review' }),
    event: {
      type: 'agent_done',
      role: 'reviewer',
      action: { kind: 'review' },
      text: '[CHANGES_REQUIRED]\n1. more tests',
    },
    to: 'RESPOND',
    effects: ['write_comments', 'notify', 'log'],
  },
  {
    name: 'REVIEW → APPROVED on approval',
    from: running('REVIEW', { kind: 'review' }),
    event: { type: 'agent_done', role: 'reviewer', action: { kind: 'review' }, text: '[APPROVED]\nfine' },
    to: 'APPROVED',
    effects: ['write_comments', 'notify', 'set_plan_status', 'log', 'load_steps'],
  },
  {
    name: 'RESPOND → REVIEW when the plan is revised',
    from: running('RESPOND', { kind: 'respond' }, { iteration: 1 }),
    event: { type: 'agent_done', role: 'planner', action: { kind: 'respond' }, text: '# Task: x v2' },
    to: 'REVIEW',
    effects: ['write_plan', 'log'],
  },
  {
    name: 'APPROVED → EXECUTE on the go',
    from: stateIn('APPROVED', { steps, awaiting: { kind: 'go', action: { kind: 'execute_step', step: 1 } } }),
    event: { type: 'go' },
    to: 'EXECUTE',
    effects: ['log', 'run_agent'],
  },
  {
    name: 'EXECUTE → EXECUTE after a step that is not the last',
    from: running('EXECUTE', { kind: 'commit_step', step: 1, summary: 's' }, { steps }),
    event: { type: 'step_committed', step: 1, commit: 'abc1234' },
    to: 'EXECUTE',
    effects: ['mark_step_done', 'log'],
  },
  {
    name: 'EXECUTE → DONE after the last step',
    from: running(
      'EXECUTE',
      { kind: 'commit_step', step: 2, summary: 's' },
      { steps: [{ ...steps[0]!, done: true }, steps[1]!] },
    ),
    event: { type: 'step_committed', step: 2, commit: null },
    to: 'DONE',
    effects: ['mark_step_done', 'log', 'log', 'report'],
  },
  ...(['REFINE_GOAL', 'WRITE_PLAN', 'REVIEW', 'RESPOND', 'APPROVED', 'EXECUTE'] as Phase[]).map((p) => ({
    name: `${p} → REFINE_GOAL on stop`,
    from: stateIn(p, { mode: 'auto' as const, inflight: p === 'APPROVED' ? null : { kind: 'review' as const } }),
    event: { type: 'stop' } as EngineEvent,
    to: 'REFINE_GOAL' as Phase,
    // A stop during goal refinement ends no run: no report.
    effects: ['stop_agents', 'set_plan_status', 'log', ...(p === 'REFINE_GOAL' ? [] : ['report'])],
  })),
  ...(['INIT', 'REFINE_GOAL', 'WRITE_PLAN', 'REVIEW', 'RESPOND', 'APPROVED', 'EXECUTE'] as Phase[]).map((p) => ({
    name: `${p} → CANCELLED on cancel`,
    from: stateIn(p),
    event: { type: 'cancel' } as EngineEvent,
    to: 'CANCELLED' as Phase,
    effects: ['stop_agents', 'log', 'report', 'archive'],
  })),
];

describe('state machine: every allowed edge', () => {
  it.each(ALLOWED)('$name', ({ from, event, to, effects }) => {
    const r = transition(from, event, OPTS);
    expect(r.state.phase).toBe(to);
    if (effects) expect(r.effects.map((e) => e.type)).toEqual(effects);
  });

  it('covers every phase as a source and as a target', () => {
    const sources = new Set(ALLOWED.map((e) => e.from.phase));
    const targets = new Set(ALLOWED.map((e) => e.to));
    for (const p of ['INIT', 'REFINE_GOAL', 'WRITE_PLAN', 'REVIEW', 'RESPOND', 'APPROVED', 'EXECUTE'] as Phase[])
      expect(sources).toContain(p);
    for (const p of [
      'REFINE_GOAL',
      'WRITE_PLAN',
      'REVIEW',
      'RESPOND',
      'APPROVED',
      'EXECUTE',
      'DONE',
      'CANCELLED',
    ] as Phase[])
      expect(targets).toContain(p);
  });
});

const INVALID: Array<{ from: WorkflowState; event: EngineEvent; error: RegExp }> = [
  {
    from: stateIn('INIT'),
    event: { type: 'go' },
    error: /"go" is not allowed in phase INIT: nothing is waiting for a go/,
  },
  {
    from: stateIn('REVIEW', { awaiting: { kind: 'goal' } }),
    event: { type: 'goal_ready' },
    error: /"goal_ready" is not allowed in phase REVIEW: the goal can be confirmed only during goal refinement/,
  },
  {
    from: running('REVIEW', { kind: 'review' }),
    event: { type: 'go' },
    error: /an agent round \(review\) is still running/,
  },
  {
    from: stateIn('WRITE_PLAN'),
    event: { type: 'user_message', text: 'hi' },
    error: /messages to the planner are for goal refinement/,
  },
  {
    from: stateIn('REFINE_GOAL', { awaiting: { kind: 'goal' } }),
    event: { type: 'start', goal: 'x' },
    error: /the run has already started/,
  },
  {
    from: stateIn('DONE'),
    event: { type: 'cancel' },
    error: /"cancel" is not allowed in phase DONE: the run is finished/,
  },
  { from: stateIn('CANCELLED'), event: { type: 'stop' }, error: /the run is finished/ },
  { from: stateIn('INIT', { goal: '' }), event: { type: 'stop' }, error: /nothing to stop/ },
  {
    from: stateIn('REVIEW'),
    event: { type: 'decide', on: 'arbitration', choice: 'approve' },
    error: /nothing is waiting for it/,
  },
  { from: stateIn('RESPOND', { mode: 'manual' }), event: { type: 'pause' }, error: /auto mode is not on/ },
  {
    from: running('REVIEW', { kind: 'review' }),
    event: { type: 'agent_done', role: 'planner', action: { kind: 'respond' }, text: 'x' },
    error: /no respond round is running/,
  },
  {
    from: stateIn('EXECUTE'),
    event: { type: 'step_committed', step: 3, commit: null },
    error: /step 3 is not being committed/,
  },
  {
    from: stateIn('REVIEW', { awaiting: { kind: 'arbitration', iteration: 5 } }),
    event: { type: 'answer', text: 'yes' },
    error: /waiting for arbitration, not question/,
  },
];

describe('state machine: invalid events are rejected with a clear error', () => {
  it.each(INVALID)('$event.type in $from.phase', ({ from, event, error }) => {
    const before = structuredClone(from);
    expect(() => transition(from, event, OPTS)).toThrow(InvalidEventError);
    expect(() => transition(from, event, OPTS)).toThrow(error);
    expect(from).toEqual(before);
  });
});
