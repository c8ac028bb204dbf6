// The Log tab (log.md + the tail of debug.log, read from the end of the file) and the Status tab's round timings.
import { appendFileSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { readTail } from '../../../src/ui/read-tail.js';
import { fakeFiles, KEY, renderApp, waitFor } from './ui-helpers.js';

const dirs: string[] = [];
afterEach(() => {
  cleanup();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempFile(name: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ac-tail-'));
  dirs.push(dir);
  return path.join(dir, name);
}

describe('readTail', () => {
  it('returns the last N lines of a huge file without reading all of it', async () => {
    const file = tempFile('debug.log');
    // 1 GB of (sparse) zeros, then the lines: more than a string can hold, so reading it all would throw.
    writeFileSync(file, '');
    truncateSync(file, 1024 ** 3);
    const line = (i: number): string => `2026-01-01T00:00:00.000Z [planner] {"type":"text","text":"line ${i}"}`;
    appendFileSync(file, `\n${Array.from({ length: 5000 }, (_, i) => line(i)).join('\n')}\n`);
    const tail = await readTail(file, 200);
    const lines = tail?.split('\n') ?? [];
    expect(lines).toHaveLength(200);
    expect(lines[0]).toBe(line(4800));
    expect(lines.at(-1)).toBe(line(4999));
  });

  it('handles a short file, a last line without newline, an empty and a missing file', async () => {
    const file = tempFile('debug.log');
    writeFileSync(file, 'a\nb\nc');
    expect(await readTail(file, 200)).toBe('a\nb\nc');
    appendFileSync(file, '\n');
    expect(await readTail(file, 2)).toBe('b\nc');
    writeFileSync(file, '');
    expect(await readTail(file, 5)).toBe('');
    expect(await readTail(path.join(path.dirname(file), 'nope.log'))).toBeNull();
  });
});

describe('Log tab', () => {
  it('shows log.md and then the tail of debug.log', async () => {
    const debug = Array.from({ length: 200 }, (_, i) => `2026-01-01T00:00:00Z [engine] event ${i}`).join('\n');
    const files = fakeFiles({ log: '# Run log\n\n## Plan written\n', debug });
    const r = await renderApp({ phase: 'REVIEW' }, { files });
    await r.press('4');
    // The Log tab follows the end: the newest debug lines are on screen (log.md may already be scrolled past).
    await waitFor(() => expect(r.frame()).toContain('[engine] event 199'));
    await r.press('\u001b[H'); // Home
    await waitFor(() => expect(r.frame()).toContain('── log.md ──'));
    expect(r.frame()).toContain('## Plan written');
    await r.press('\u001b[F'); // End
    await waitFor(() => expect(r.frame()).toContain('[engine] event 199'));
    expect(r.frame()).not.toContain('event 0\n');
  });

  it('says so when debug.log is empty', async () => {
    const r = await renderApp({ phase: 'REVIEW' }, { files: fakeFiles({ log: '# Run log\n' }) });
    await r.press('4');
    await waitFor(() => expect(r.frame()).toContain('debug.log is empty.'));
  });
});

describe('Status tab', () => {
  it('lists the recent rounds: role, action, duration, tokens, cost', async () => {
    const r = await renderApp({ phase: 'RESPOND' });
    const round = (
      role: 'planner' | 'reviewer',
      action: 'write_plan' | 'review',
      durationMs: number,
      tokens: number,
      costUsd: number,
      outcome: 'done' | 'failed' = 'done',
    ) =>
      r.engine.emit({
        type: 'notice',
        notice: {
          kind: 'round',
          role,
          action,
          outcome,
          usage: { inputTokens: tokens - 100, outputTokens: 100, cachedTokens: 0, costUsd, durationMs, calls: 1 },
        },
      });
    round('planner', 'write_plan', 42_300, 12_000, 0.31);
    round('reviewer', 'review', 8_100, 3_500, 0.05);
    round('reviewer', 'review', 125_000, 900, 0, 'failed');
    await r.press('5');
    await waitFor(() => expect(r.frame()).toContain('planner'));
    await r.press(KEY.end); // the rounds are at the bottom of the tab
    await waitFor(() => expect(r.frame()).toContain('Rounds since this start: last 3 of 3'));
    const f = r.frame();
    const row = (...cells: string[]): RegExp =>
      new RegExp(cells.map((c) => c.replace(/[.$]/g, (m) => `\\${m}`)).join('\\s+'));
    expect(f).toMatch(row('1', 'planner', 'write_plan', '42.3 s', '12k', '$0.31'));
    expect(f).toMatch(row('2', 'reviewer', 'review', '8.1 s', '3.5k', '$0.05'));
    expect(f).toMatch(row('3', 'reviewer', 'review', '2:05', '900', '$0.00', 'failed'));
  });

  it('says when no round has finished yet', async () => {
    const r = await renderApp({ phase: 'WRITE_PLAN' });
    await r.press('5');
    await waitFor(() => expect(r.frame()).toContain('none finished yet'));
  });
});
