// A long agent stream stays cheap: appends do not copy the conversation, and the App renders batches, not lines.
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineOutput } from '../../../src/core/events.js';
import { appendItems, CHUNK_SIZE, emptyList, listFrom, replaceLast, toArray } from '../../../src/ui/entry-list.js';
import { entriesOf, initialView, reduceAll, reduceView } from '../../../src/ui/view-model.js';
import { stateIn } from '../../helpers/states.js';
import { renderApp, waitFor } from './ui-helpers.js';

afterEach(() => cleanup());

const line = (i: number): EngineOutput => ({
  type: 'agent_event',
  role: 'planner',
  event: { type: 'text', text: `line ${i} of the stream` },
});

describe('the chunked entry list', () => {
  it('appends, keeps the newest max items, replaces one', () => {
    let l = emptyList<number>();
    for (let i = 0; i < 1000; i++) l = appendItems(l, [i], 150);
    expect(l.size).toBe(150);
    expect(toArray(l)).toEqual(Array.from({ length: 150 }, (_, i) => 850 + i));
    expect(l.chunks.every((c) => c.length <= CHUNK_SIZE)).toBe(true);
    const before = toArray(l);
    const r = replaceLast(
      l,
      (x) => x % 100 === 0,
      (x) => -x,
    );
    expect(toArray(r ?? emptyList())).toEqual(before.map((x) => (x === 900 ? -900 : x)));
    expect(toArray(l)).toEqual(before); // the old list is untouched
    expect(
      replaceLast(
        listFrom([1, 2]),
        (x) => x > 5,
        (x) => x,
      ),
    ).toBeNull();
    expect(toArray(appendItems(listFrom([1, 2, 3]), [4, 5], 2))).toEqual([4, 5]);
  });
});

describe('a 200k-line stream', () => {
  it('goes through the view model, keeping the last 1000', () => {
    let v = initialView(stateIn('EXECUTE', { inflight: { kind: 'execute_step', step: 1 } }), { now: 0 });
    for (let i = 0; i < 200_000; i++) v = reduceView(v, line(i), 0);
    const entries = entriesOf(v);
    expect(entries).toHaveLength(1000);
    expect(entries.at(-1)?.text).toBe('line 199999 of the stream');
    expect(entries[0]?.text).toBe('line 199000 of the stream');
  });

  it('through the App: keys stay responsive while it streams and the end is shown', async () => {
    const r = await renderApp({ phase: 'EXECUTE', inflight: { kind: 'execute_step', step: 1 } });
    const total = 200_000;
    const perTick = 2000; // a pipe chunk's worth of lines per event-loop turn
    let sent = 0;
    let keyShown = false;
    // The stream does not end before the key has been shown: a key queued behind the stream would never be.
    const streamed = new Promise<void>((resolve) => {
      const tick = (): void => {
        for (let i = 0; i < perTick; i++) r.engine.emit(line(sent++));
        if (sent < total || !keyShown) setImmediate(tick);
        else resolve();
      };
      setImmediate(tick);
    });
    // Halfway through, switch tabs: the screen shows it while the lines keep coming.
    await waitFor(() => expect(sent).toBeGreaterThan(total / 2), 60_000);
    await r.press('5');
    await waitFor(() => expect(r.frame()).toContain('[5:Status]'), 60_000);
    keyShown = true;
    await r.press('1');
    await streamed;
    await waitFor(() => expect(r.frame()).toContain(`line ${sent - 1} of the stream`), 60_000);
  }, 180_000);
});

describe('a batch of engine outputs', () => {
  it('reduces to the same view as one output at a time (appends, tool results, commands, notices)', () => {
    const outs: EngineOutput[] = [];
    for (let i = 0; i < 30; i++) {
      outs.push(line(i));
      if (i % 7 === 0)
        outs.push({
          type: 'agent_event',
          role: 'planner',
          event: { type: 'tool_call', id: `t${i}`, name: 'read', input: { i } },
        });
      if (i % 7 === 3)
        outs.push({
          type: 'agent_event',
          role: 'planner',
          event: { type: 'tool_result', id: `t${i - 3}`, output: `out ${i}`, isError: false },
        });
      if (i % 5 === 0)
        outs.push({
          type: 'agent_event',
          role: 'reviewer',
          event: { type: 'command', id: `c${i}`, command: 'npm test', status: 'started' },
        });
      if (i % 5 === 2)
        outs.push({
          type: 'agent_event',
          role: 'reviewer',
          event: { type: 'command', id: `c${i - 2}`, command: 'npm test', status: 'completed', exitCode: 1 },
        });
      if (i % 11 === 0) outs.push({ type: 'notice', notice: { kind: 'info', message: `note ${i}` } });
    }
    const start = initialView(stateIn('EXECUTE'), { maxEntries: 25, now: 0 });
    const oneByOne = outs.reduce((v, o) => reduceView(v, o, 0), start);
    const batched = reduceAll(start, outs, 0);
    expect(entriesOf(batched)).toEqual(entriesOf(oneByOne));
    expect(batched.nextId).toBe(oneByOne.nextId);
    expect(entriesOf(batched)).toHaveLength(25);
  });
});
