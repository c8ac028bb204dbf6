// Between two frames the App folds what the engine publishes into PendingOutputs: a flood keeps at most twice the
// conversation's size, and reducing what it hands over gives the same view as one output at a time.
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineOutput } from '../../../src/core/events.js';
import { PendingOutputs } from '../../../src/ui/pending-outputs.js';
import { entriesOf, initialView, reduceAll, reduceView } from '../../../src/ui/view-model.js';
import { stateIn } from '../../helpers/states.js';
import { KEY, renderApp, waitFor } from './ui-helpers.js';

afterEach(() => cleanup());

const text = (i: number): EngineOutput => ({
  type: 'agent_event',
  role: 'planner',
  event: { type: 'text', text: `line ${i}  ` },
});

function stream(n: number): EngineOutput[] {
  const outs: EngineOutput[] = [];
  for (let i = 0; i < n; i++) {
    outs.push(text(i));
    if (i % 97 === 0)
      outs.push({
        type: 'agent_event',
        role: 'planner',
        event: { type: 'tool_call', id: `t${i}`, name: 'read', input: { i } },
      });
    if (i % 97 === 5)
      outs.push({
        type: 'agent_event',
        role: 'planner',
        event: { type: 'tool_result', id: `t${i - 5}`, output: `out ${i}`, isError: false },
      });
    if (i % 211 === 0)
      outs.push({
        type: 'agent_event',
        role: 'reviewer',
        event: { type: 'command', id: `c${i}`, command: 'npm test', status: 'started' },
      });
    if (i % 211 === 3)
      outs.push({
        type: 'agent_event',
        role: 'reviewer',
        event: { type: 'command', id: `c${i - 3}`, command: 'npm test', status: 'completed', exitCode: 0 },
      });
    if (i % 500 === 0) outs.push({ type: 'notice', notice: { kind: 'info', message: `note ${i}` } });
    if (i % 50 === 0) outs.push({ type: 'agent_event', role: 'planner', event: { type: 'text', text: '   ' } }); // adds nothing
  }
  return outs;
}

describe('PendingOutputs', () => {
  it('hands over what reduces to the same view as every output one at a time', () => {
    const max = 40;
    const start = initialView(stateIn('EXECUTE'), { maxEntries: max, now: 0 });
    const outs = stream(3000);
    const oneByOne = outs.reduce((v, o) => reduceView(v, o, 0), start);
    // In frames of different sizes, as a stream meets the frame clock.
    let folded = start;
    let pending = new PendingOutputs(max);
    outs.forEach((o, i) => {
      pending.push(o);
      if (i % 1234 === 0) {
        folded = reduceAll(folded, pending.take(), 0);
        pending = new PendingOutputs(max);
      }
    });
    folded = reduceAll(folded, pending.take(), 0);
    expect(entriesOf(folded)).toEqual(entriesOf(oneByOne));
    expect(folded.nextId).toBe(oneByOne.nextId);
    expect(entriesOf(folded)).toHaveLength(max);
  });

  it('keeps at most twice maxEntries of a flood, counting the ones it let go', () => {
    const pending = new PendingOutputs(100);
    for (let i = 0; i < 100_000; i++) pending.push(text(i));
    expect(pending.count).toBe(100_000);
    const [run, ...rest] = pending.take();
    expect(rest).toEqual([]);
    if (run?.type !== 'entries') throw new Error(`expected one run of entries, got ${run?.type}`);
    expect(run.entries.length).toBeLessThan(200);
    expect(run.skipped + run.entries.length).toBe(100_000);
    expect(run.entries.at(-1)?.text).toBe('line 99999');
    expect(pending.empty).toBe(true);
    expect(pending.count).toBe(0);
  });
});

describe('the conversation after a long stream', () => {
  it('says at its top how many earlier entries it let go, and where they are', async () => {
    const r = await renderApp({ phase: 'EXECUTE', inflight: { kind: 'execute_step', step: 1 } }, { maxEntries: 5 });
    for (let i = 0; i < 20; i++) r.engine.emit(text(i));
    await waitFor(() => expect(r.frame()).toContain('line 19'));
    await r.press(KEY.home);
    await waitFor(() =>
      expect(r.frame()).toContain("… 15 earlier entries not kept in memory (the agents' events are in debug.log)"),
    );
    expect(r.frame()).toContain('line 15');
    expect(r.frame()).not.toContain('line 14');
  });
});
