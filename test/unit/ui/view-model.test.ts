import { describe, expect, it } from 'vitest';
import type { EngineOutput } from '../../../src/core/events.js';
import type { AgentEvent, WorkflowState } from '../../../src/core/types.js';
import { formatElapsed, formatTokens } from '../../../src/ui/format.js';
import {
  describeAction,
  entriesOf,
  MAX_ROUNDS,
  initialView,
  reduceView,
  type ViewAction,
  type ViewState,
} from '../../../src/ui/view-model.js';
import { stateIn } from '../../helpers/states.js';

function run(view: ViewState, ...actions: ViewAction[]): ViewState {
  return actions.reduce((v, a) => reduceView(v, a, 1000), view);
}
const agent = (role: 'planner' | 'reviewer', event: AgentEvent): EngineOutput => ({ type: 'agent_event', role, event });
const state = (s: WorkflowState): EngineOutput => ({ type: 'state', state: s });

describe('view model', () => {
  it('keeps the agents’ messages, role-labelled, in order', () => {
    const v = run(
      initialView(stateIn('REVIEW'), { now: 0 }),
      agent('planner', { type: 'text', text: 'Here is the plan' }),
      agent('reviewer', { type: 'text', text: '[APPROVED]' }),
    );
    expect(entriesOf(v).map((e) => [e.who, e.kind, e.text])).toEqual([
      ['planner', 'message', 'Here is the plan'],
      ['reviewer', 'message', '[APPROVED]'],
    ]);
  });

  it('shows a tool call as one line and attaches its result as the expandable detail', () => {
    const v = run(
      initialView(stateIn('EXECUTE')),
      agent('planner', { type: 'tool_call', id: 't1', name: 'read_file', input: { path: 'src/a.ts' } }),
      agent('planner', { type: 'tool_result', id: 't1', output: 'export const a = 1;', isError: false }),
    );
    expect(entriesOf(v)).toHaveLength(1);
    expect(entriesOf(v)[0]).toMatchObject({ kind: 'tool', text: 'read_file {"path":"src/a.ts"}', status: 'ok' });
    expect(entriesOf(v)[0]?.detail).toContain('export const a = 1;');
  });

  it('folds a command’s completion into its started line, with the exit code and output', () => {
    const v = run(
      initialView(stateIn('EXECUTE')),
      agent('planner', { type: 'command', command: 'npm test', status: 'started' }),
      agent('planner', { type: 'command', command: 'npm test', status: 'failed', exitCode: 1, output: '1 failing' }),
    );
    expect(entriesOf(v)).toHaveLength(1);
    expect(entriesOf(v)[0]).toMatchObject({
      kind: 'command',
      text: '$ npm test (exit 1)',
      status: 'failed',
      detail: '1 failing',
    });
  });

  it('keeps only the last N entries', () => {
    let v = initialView(stateIn('REVIEW'), { maxEntries: 3 });
    for (let i = 1; i <= 5; i++) v = reduceView(v, agent('planner', { type: 'text', text: `m${i}` }));
    expect(entriesOf(v).map((e) => e.text)).toEqual(['m3', 'm4', 'm5']);
    expect(new Set(entriesOf(v).map((e) => e.id)).size).toBe(3);
  });

  it('follows phase, iteration and the usage totals from the state', () => {
    const s = stateIn('RESPOND', {
      iteration: 2,
      maxIterations: 5,
      usage: { inputTokens: 1200, outputTokens: 300, cachedTokens: 0, costUsd: 0.05, durationMs: 4000, calls: 2 },
    });
    const v = run(
      initialView(stateIn('REVIEW')),
      { type: 'phase', from: 'REVIEW', to: 'RESPOND', iteration: 2 },
      state(s),
    );
    expect(v).toMatchObject({ phase: 'RESPOND', iteration: 2, maxIterations: 5 });
    expect(v.usage.costUsd).toBe(0.05);
    expect(entriesOf(v).at(-1)).toMatchObject({ kind: 'phase', text: 'REVIEW → RESPOND (after round 2)' });
  });

  it('says which agent works on what, and since when', () => {
    const s = stateIn('REVIEW', { inflight: { kind: 'review' }, iteration: 1 });
    const v = reduceView(initialView(stateIn('REVIEW')), state(s), 5000);
    expect(v.working).toEqual({ role: 'reviewer', what: 'reviewing the plan (round 2)', since: 5000 });
    // The same round keeps its start time; the next one gets a new one.
    const same = reduceView(v, state({ ...s, usage: { ...s.usage, calls: 1 } }), 9000);
    expect(same.working?.since).toBe(5000);
    const steps = [{ n: 1, title: 'Add the flag', done: false }];
    const exec = reduceView(
      same,
      state(stateIn('EXECUTE', { inflight: { kind: 'execute_step', step: 1 }, steps })),
      9000,
    );
    expect(exec.working).toEqual({ role: 'planner', what: 'executing step 1/1: Add the flag', since: 9000 });
    expect(reduceView(exec, state(stateIn('EXECUTE', { steps })), 9500).working).toBeNull();
  });

  it('labels the mode MANUAL / AUTO / PAUSING / PAUSED', () => {
    let v = initialView(stateIn('REVIEW'));
    expect(v.modeLabel).toBe('MANUAL');
    v = run(
      v,
      { type: 'sent', event: { type: 'set_mode', mode: 'auto' } },
      state(stateIn('REVIEW', { mode: 'auto', inflight: { kind: 'review' } })),
    );
    expect(v.modeLabel).toBe('AUTO');
    v = run(
      v,
      { type: 'sent', event: { type: 'pause' } },
      state(stateIn('REVIEW', { mode: 'auto', pauseRequested: true, inflight: { kind: 'review' } })),
    );
    expect(v.modeLabel).toBe('PAUSING');
    v = run(v, state(stateIn('RESPOND', { mode: 'manual', awaiting: { kind: 'go', action: { kind: 'respond' } } })));
    expect(v.modeLabel).toBe('PAUSED');
    v = run(v, { type: 'sent', event: { type: 'set_mode', mode: 'auto' } });
    expect(v.modeLabel).toBe('MANUAL'); // until the engine says auto
  });

  it('tracks what the engine waits for (the dialog to show) and clears it when it is answered', () => {
    const waiting = stateIn('REVIEW', { iteration: 5, awaiting: { kind: 'arbitration', iteration: 5 } });
    let v = run(initialView(stateIn('REVIEW')), state(waiting), {
      type: 'awaiting',
      awaiting: { kind: 'arbitration', iteration: 5 },
      phase: 'REVIEW',
    });
    expect(v.awaiting).toEqual({ kind: 'arbitration', iteration: 5 });
    v = run(v, state({ ...waiting, phase: 'APPROVED', awaiting: null }));
    expect(v.awaiting).toBeNull();
  });

  it('shows what the person sent, and rejections / errors as a flash line', () => {
    let v = run(initialView(stateIn('REFINE_GOAL')), {
      type: 'sent',
      event: { type: 'user_message', text: 'add a --verbose flag' },
    });
    expect(entriesOf(v).at(-1)).toMatchObject({ who: 'you', text: 'add a --verbose flag' });
    v = run(v, { type: 'rejected', event: 'go', message: 'nothing is waiting for a go' });
    expect(v.flash).toMatchObject({ text: 'nothing is waiting for a go', tone: 'warn' });
    v = run(v, { type: 'sent', event: { type: 'go' } });
    expect(v.flash).toBeNull();
    v = run(v, { type: 'error', message: 'disk full' });
    expect(v.flash?.tone).toBe('error');
  });

  it('notes verdicts and the end of the run', () => {
    const v = run(
      initialView(stateIn('REVIEW')),
      { type: 'notice', notice: { kind: 'verdict', iteration: 1, verdict: 'CHANGES_REQUIRED', marker: true } },
      { type: 'finished', phase: 'DONE' },
    );
    expect(entriesOf(v).map((e) => e.text)).toEqual([
      'Verdict CHANGES_REQUIRED (iteration 1)',
      'Run finished: all steps done.',
    ]);
    expect(v.finished).toBe('DONE');
  });

  it('lists command-policy and test-run notices in the conversation (warnings for a denial or a failing run)', () => {
    const v = run(
      initialView(stateIn('EXECUTE')),
      {
        type: 'notice',
        notice: {
          kind: 'command',
          role: 'planner',
          command: 'rm -rf /',
          decision: 'deny',
          rule: 'rm-rf',
          reason: 'deletes files recursively',
        },
      },
      {
        type: 'notice',
        notice: { kind: 'tests', step: 2, attempt: 1, command: 'npm test', passed: false, durationMs: 4200 },
      },
      {
        type: 'notice',
        notice: { kind: 'tests', step: 2, attempt: 2, command: 'npm test', passed: true, durationMs: 3900 },
      },
    );
    expect(entriesOf(v).map((e) => [e.text, e.tone])).toEqual([
      ['Denied the planner\'s command: rm -rf / (rule "rm-rf"): deletes files recursively', 'warn'],
      ['Step 2 attempt 1: `npm test` FAILED in 4.2 s', 'warn'],
      ['Step 2 attempt 2: `npm test` passed in 3.9 s', 'info'],
    ]);
  });

  it('keeps the recent rounds with their timings for the Status tab', () => {
    const usage = (durationMs: number) => ({
      inputTokens: 1000,
      outputTokens: 200,
      cachedTokens: 0,
      costUsd: 0.01,
      durationMs,
      calls: 1,
    });
    let v = initialView(stateIn('REVIEW'));
    for (let i = 0; i < MAX_ROUNDS + 5; i++)
      v = reduceView(
        v,
        {
          type: 'notice',
          notice: { kind: 'round', role: 'reviewer', action: 'review', outcome: 'done', usage: usage(i * 1000) },
        },
        7,
      );
    expect(v.roundCount).toBe(MAX_ROUNDS + 5);
    expect(v.rounds).toHaveLength(MAX_ROUNDS);
    expect(v.rounds.at(-1)).toEqual({
      role: 'reviewer',
      action: 'review',
      outcome: 'done',
      usage: usage((MAX_ROUNDS + 4) * 1000),
      n: MAX_ROUNDS + 5,
      at: 7,
    });
    expect(entriesOf(v)).toEqual([]); // not conversation lines
  });

  it('names agent-collab’s own execution work', () => {
    const s = stateIn('EXECUTE', { steps: [{ n: 2, title: 'Add tests', done: false }] });
    expect(describeAction({ kind: 'run_tests', step: 2, attempt: 3 }, s)).toBe('testing step 2 (attempt 3)');
    expect(describeAction({ kind: 'ask_test_command', step: 2 }, s)).toBe('asking which command tests step 2');
    expect(describeAction({ kind: 'rollback_step', step: 2 }, s)).toBe('rolling back step 2');
    const v = reduceView(initialView(s), state({ ...s, inflight: { kind: 'run_tests', step: 2, attempt: 1 } }), 100);
    expect(v.working).toEqual({ role: 'agent-collab', what: 'testing step 2 (attempt 1)', since: 100 });
  });

  it('formats tokens and elapsed time compactly', () => {
    expect([formatTokens(950), formatTokens(12_345), formatTokens(2_500_000)]).toEqual(['950', '12k', '2.5M']);
    expect([formatElapsed(65_000), formatElapsed(3_725_000)]).toEqual(['1:05', '1:02:05']);
  });
});
