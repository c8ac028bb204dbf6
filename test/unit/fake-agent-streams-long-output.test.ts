// A fake script's `stream`: many text lines made as they go, a chunk per event-loop turn, before the answer.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeAgent, STREAM_LINE } from '../../src/adapters/fake/fake-agent.js';
import { loadFakeScript } from '../../src/adapters/fake/script.js';
import type { AgentEvent, AgentTurn } from '../../src/core/types.js';
import { UserError } from '../../src/core/errors.js';

const turn = (cwd: string): AgentTurn => ({
  prompt: '<goal>\nx\n</goal>',
  cwd,
  access: 'read-only',
  meta: { role: 'planner', kind: 'write_plan', iteration: 0, step: null },
});

describe('a streaming fake agent', () => {
  it('streams the lines in order, a chunk per event-loop turn, then answers', async () => {
    const agent = new FakeAgent('p', {
      rules: [{ do: { stream: { lines: 25, perChunk: 10, text: 'row {n} of {n}' } } }],
    });
    const events: AgentEvent[] = [];
    const turnsSeen: number[] = [];
    let loopTurns = 0;
    const tick = (): void => {
      loopTurns++;
      if (loopTurns < 1000) setImmediate(tick);
    };
    setImmediate(tick);
    for await (const e of agent.start(turn(await mkdtemp(path.join(tmpdir(), 'fake-'))))) {
      events.push(e);
      if (e.type === 'text' && e.text.startsWith('row')) turnsSeen.push(loopTurns);
    }
    const rows = events.flatMap((e) => (e.type === 'text' && e.text.startsWith('row') ? [e.text] : []));
    expect(rows).toEqual(Array.from({ length: 25 }, (_, n) => `row ${n} of ${n}`));
    expect(new Set(turnsSeen).size).toBe(3); // 10 + 10 + 5, each chunk in a turn of its own
    expect(events.map((e) => e.type).slice(-3)).toEqual(['text', 'usage', 'done']);
    expect(STREAM_LINE).toContain('{n}');
  });

  it('stops streaming when the agent is stopped', async () => {
    const agent = new FakeAgent('p', { rules: [{ do: { stream: { lines: 1_000_000 } } }] });
    let lines = 0;
    for await (const e of agent.start(turn(await mkdtemp(path.join(tmpdir(), 'fake-'))))) {
      if (e.type === 'text' && ++lines === 600) await agent.stop();
      expect(e.type).not.toBe('done');
    }
    expect(lines).toBeLessThan(1500);
  });

  it('is accepted in a JSON script, and a bad one is a one-line error', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'script-'));
    const good = path.join(dir, 'good.json');
    await writeFile(
      good,
      JSON.stringify({ rules: [{ when: { kind: 'write_plan' }, do: { stream: { lines: 200000, perChunk: 500 } } }] }),
    );
    expect((await loadFakeScript(good)).rules[0]?.do.stream).toEqual({ lines: 200000, perChunk: 500 });
    const bad = path.join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ rules: [{ do: { stream: { lines: -1 } } }] }));
    await expect(loadFakeScript(bad)).rejects.toThrow(UserError);
    await expect(loadFakeScript(bad)).rejects.toThrow(/invalid at rules\.0\.do\.stream\.lines/);
  });
});
