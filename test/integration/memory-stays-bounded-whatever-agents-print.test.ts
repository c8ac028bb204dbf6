// agent-collab's memory stays bounded however much the agents print: the built CLI runs a review round on a
// stand-in codex that prints 2×50 MB (in 1 MB lines, or as one 50 MB line per turn) to a `--json` reader that
// reads slowly, or one 100 MB line on stderr. Peak RSS (VmHWM of agent-collab's process) stays under 300 MB, the round still ends approved, a
// huge line reaches the reader cut in the middle, and debug.log stays within its cap. Run `npm run build` first.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RSS_GOAL_BYTES, runLoud, type MemoryRun } from '../../bench/memory.js';

const MB = 1024 * 1024;
let run: MemoryRun | undefined;
afterEach(() => run?.cleanup());

const texts = (r: MemoryRun): string[] =>
  r.events.filter((e) => e.event === 'agent' && e.type === 'text').map((e) => String(e.text));

describe('memory whatever the agents print', () => {
  it('2×50 MB in 1 MB lines to a slow --json reader: peak RSS < 300 MB, every line passed on', async () => {
    run = await runLoud({ messages: 50, messageChars: MB });
    expect(run.code).toBe(3); // approved; execution waits for a go
    expect(run.peakRssBytes).toBeGreaterThan(0);
    expect(run.peakRssBytes).toBeLessThan(RSS_GOAL_BYTES);
    expect(texts(run).filter((t) => t.startsWith('LOUD-START'))).toHaveLength(100);
    expect(run.stdoutBytes).toBeGreaterThan(100 * MB);
  }, 300_000);

  it('a 50 MB single line per turn: peak RSS < 300 MB, the line cut in its middle, debug.log within its cap', async () => {
    run = await runLoud({ messages: 1, messageChars: 50 * MB });
    expect(run.code).toBe(3);
    expect(run.peakRssBytes).toBeGreaterThan(0);
    expect(run.peakRssBytes).toBeLessThan(RSS_GOAL_BYTES);
    const loud = texts(run).filter((t) => t.startsWith('LOUD-START'));
    expect(loud).toHaveLength(2);
    // the reader sees each message, cut in its middle to 4 MB (not dropped)
    for (const t of loud) expect(t).toMatch(/…\(\d+, cut\)$/);
    const lengths = loud.map((t) => Number(/…\((\d+)/.exec(t)?.[1]));
    for (const n of lengths) expect(n).toBeGreaterThan(MB);
    for (const n of lengths) expect(n).toBeLessThan(5 * MB);
    const work = path.join(run.repo, '.agent-collab');
    for (const f of readdirSync(work).filter((n) => n.startsWith('debug.log')))
      expect(statSync(path.join(work, f)).size).toBeLessThanOrEqual(10 * MB);
  }, 300_000);

  it('a 100 MB single stderr line per turn: peak RSS < 300 MB, the round ends approved, debug.log within its cap with the head and tail of the line', async () => {
    run = await runLoud({ messages: 1, messageChars: 1024, stderrChars: 100 * MB });
    expect(run.code).toBe(3);
    expect(run.events.filter((e) => e.event === 'verdict').map((e) => e.verdict)).toEqual(['APPROVED']);
    expect(run.peakRssBytes).toBeGreaterThan(0);
    expect(run.peakRssBytes).toBeLessThan(RSS_GOAL_BYTES);
    const work = path.join(run.repo, '.agent-collab');
    const logs = readdirSync(work).filter((n) => n.startsWith('debug.log'));
    for (const f of logs) expect(statSync(path.join(work, f)).size).toBeLessThanOrEqual(10 * MB);
    // both turns' stderr lines are logged, each cut to its head and tail (their ends are there)
    const logged = logs.map((f) => readFileSync(path.join(work, f), 'utf8')).join('');
    const stderrLines = logged.split('\n').filter((l) => / \[(planner|reviewer)\/codex stderr\] E/.test(l));
    expect(stderrLines).toHaveLength(2);
    for (const l of stderrLines) {
      expect(l).toContain('characters of this line not logged');
      expect(l.endsWith('E STDERR-END')).toBe(true);
    }
  }, 300_000);
});
