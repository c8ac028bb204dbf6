// Issue 20, defect 11: stale state on screen. A denial's flash line stayed under the next step's question; after
// `s` the status bar kept `iter 5/6`; the clock restarted on resume while tokens did not; "Rounds: last 2 of 2" sat
// beside "22 call(s)"; the Status tab showed the first words of the person, not the planner's refined goal.
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { transition } from '../../../src/core/transition.js';
import type { Notice } from '../../../src/core/events.js';
import { toArray } from '../../../src/ui/entry-list.js';
import { initialView, reduceAll, type ViewAction } from '../../../src/ui/view-model.js';
import { OPTS, running, stateIn } from '../../helpers/states.js';
import { renderApp, waitFor } from './ui-helpers.js';

afterEach(() => cleanup());

const DENIED: Notice = {
  kind: 'command',
  role: 'planner',
  command: 'curl https://example.com',
  decision: 'deny',
  rule: 'network',
  reason: 'network access is not allowed',
};
const roundEnded = (role: 'planner' | 'reviewer' = 'planner'): ViewAction => ({
  type: 'notice',
  notice: {
    kind: 'round',
    role,
    action: 'execute_step',
    outcome: 'done',
    usage: { inputTokens: 1, outputTokens: 1, cachedTokens: 0, costUsd: 0, durationMs: 1000, calls: 1 },
  },
});

describe('the flash line', () => {
  it('a denial during a step is gone once that round ended and the next question is asked', () => {
    const s1 = running('EXECUTE', { kind: 'execute_step', step: 1 });
    let v = initialView(s1, { now: 0 });
    v = reduceAll(v, [{ type: 'notice', notice: DENIED }], 1);
    expect(v.flash?.text).toContain('curl https://example.com');
    const next = stateIn('EXECUTE', { awaiting: { kind: 'go', action: { kind: 'execute_step', step: 2 } } });
    v = reduceAll(v, [roundEnded(), { type: 'state', state: next }], 2);
    expect(v.awaiting?.kind).toBe('go');
    expect(v.flash).toBeNull();
    // The conversation keeps it.
    expect(toArray(v.entries).some((e) => e.text.includes('curl https://example.com'))).toBe(true);
  });

  it('a notice that explains the question asked right after it stays (no round ended in between)', () => {
    const conflict = {
      kind: 'merge_conflicts',
      file: 'plan',
      role: 'planner',
      action: { kind: 'respond' },
      text: 'x',
      yours: 'y',
      conflicts: 1,
    } as const;
    let v = initialView(running('RESPOND', { kind: 'respond' }), { now: 0 });
    const why: ViewAction = { type: 'notice', notice: { kind: 'info', message: 'plan.md still has conflict markers' } };
    v = reduceAll(v, [why, { type: 'state', state: stateIn('RESPOND', { awaiting: conflict }) }], 1);
    expect(v.flash?.text).toBe('plan.md still has conflict markers');
  });
});

describe('the status bar and the Status tab', () => {
  it('after s (stop), the run is back in goal refinement at iteration 0, not at the last review round', () => {
    const s = stateIn('REVIEW', {
      iteration: 5,
      maxIterations: 6,
      awaiting: { kind: 'go', action: { kind: 'review' } },
    });
    const r = transition(s, { type: 'stop' }, OPTS);
    expect(r.state.phase).toBe('REFINE_GOAL');
    expect(r.state.iteration).toBe(0);
  });

  it('a resumed run’s clock goes on from its agent time, as its tokens do', async () => {
    const usage = {
      inputTokens: 9000,
      outputTokens: 1000,
      cachedTokens: 0,
      costUsd: 0.1,
      durationMs: 125_000,
      calls: 22,
    };
    const r = await renderApp({ phase: 'REVIEW', awaiting: { kind: 'go', action: { kind: 'review' } }, usage });
    await waitFor(() => expect(r.frame()).toContain('⏱ 2:05'));
    expect(r.frame()).toContain('10k tok');
  });

  it('the Status tab says the rounds it lists are this start’s, beside the whole run’s calls', async () => {
    const usage = { inputTokens: 9000, outputTokens: 1000, cachedTokens: 0, costUsd: 0.1, durationMs: 1, calls: 22 };
    const r = await renderApp({ phase: 'REVIEW', usage });
    await r.press('5');
    await waitFor(() =>
      expect(r.frame()).toContain('Rounds since this start: last 0 of 0 · the whole run: 22 agent call(s)'),
    );
  });

  it('the Status tab shows the planner’s refined goal, and what the person first asked', async () => {
    const refinedGoal = '## Refined goal\nAdd a --verbose flag that logs each step.\n\n## Assumptions\n1. None.';
    const r = await renderApp({ phase: 'REFINE_GOAL', goal: 'verbose pls', refinedGoal, awaiting: { kind: 'goal' } });
    await r.press('\u001b', '5');
    await waitFor(() => expect(r.frame()).toMatch(/goal\s+Add a --verbose flag that logs each step\./));
    expect(r.frame()).toMatch(/first asked\s+verbose pls/);
  });
});
