// The Log tab (log.md + the tail of debug.log, read from the end of the file) and the Status tab's round timings.
import { appendFileSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanup } from 'ink-testing-library';
import chalk from 'chalk';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
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

describe('Log tab: parsed events', () => {
  const at = (s: number): string => `2026-01-01T12:00:${String(s).padStart(2, '0')}.000Z`;
  const debugLines = [
    `${at(1)} [planner] {"type":"command","id":"c1","command":"npm test","status":"completed","exitCode":0,"output":"ok\\nall 12 passed"}`,
    `${at(2)} [engine] rejected go: not now`,
    `${at(3)} [reviewer] {"type":"text","text":"Looks good.\\nOne nit."}`,
  ].join('\n');
  const log = `# agent-collab log\n\n## ${at(0)} — Plan approved\n\n- iteration 2\n`;

  it('shows one line per event (time, who, kind, summary), not raw JSON', async () => {
    const r = await renderApp({ phase: 'REVIEW' }, { files: fakeFiles({ log, debug: debugLines }) });
    await r.press('4');
    await waitFor(() => expect(r.frame()).toMatch(/12:00:03 reviewer +text +Looks good\. One nit\./));
    const f = r.frame();
    expect(f).toMatch(/12:00:00 log\.md +entry +Plan approved/);
    expect(f).toMatch(/12:00:01 planner +command +completed \(exit 0\): \$ npm test/);
    expect(f).toMatch(/12:00:02 engine +text +rejected go: not now/);
    expect(f).not.toContain('{"type"');
    // In time order: log.md's entry among debug.log's lines.
    expect(f.indexOf('Plan approved')).toBeLessThan(f.indexOf('npm test'));
  });

  it('k / ↑ move the selection, x expands the selected event pretty-printed and collapses it again', async () => {
    const r = await renderApp({ phase: 'REVIEW' }, { files: fakeFiles({ log, debug: debugLines }) });
    await r.press('4');
    await waitFor(() => expect(r.frame()).toContain('Looks good.'));
    await r.press('k', KEY.up); // from the newest (the reviewer's text) up two: the planner's command
    await r.press('x');
    await waitFor(() => expect(r.frame()).toContain('command: npm test'));
    const f = r.frame();
    expect(f).toContain('▾ 12:00:01 planner');
    expect(f).toContain('exitCode: 0');
    // A multi-line output reads as its lines.
    expect(f).toMatch(/output:\n {6}ok\n {6}all 12 passed/);
    // Only the selected event opened.
    expect(f).toContain('▸ 12:00:03 reviewer');
    await r.press('x');
    await waitFor(() => expect(r.frame()).not.toContain('command: npm test'));
    await r.press('j', 'x'); // down one: the engine's line, shown whole
    await waitFor(() => expect(r.frame()).toContain('▾ 12:00:02 engine'));
    expect(r.frame()).toMatch(/\n {4}rejected go: not now/);
  });

  it('the selected event is drawn inverse (kept without colours)', async () => {
    // chalk is Ink's colour library: its level on, as on a terminal, so the styles reach the frame.
    const level = chalk.level;
    chalk.level = 1;
    onTestFinished(() => {
      chalk.level = level;
    });
    const r = await renderApp({ phase: 'REVIEW' }, { files: fakeFiles({ log, debug: debugLines }), colors: false });
    await r.press('4');
    await waitFor(() => expect(r.frame()).toContain('Looks good.'));
    const inverse = (f: string): string[] => f.split('\n').filter((l) => l.includes('\u001b[7m'));
    await waitFor(() => expect(inverse(r.frame()).join('\n')).toContain('12:00:03 reviewer'));
    await r.press('k');
    await waitFor(() => expect(inverse(r.frame()).join('\n')).toContain('12:00:02 engine'));
  });

  it('follows the newest of 200 events; Home selects the first, End the newest again', async () => {
    const debug = Array.from({ length: 200 }, (_, i) => `${at(5)} [engine] event ${i}`).join('\n');
    const files = fakeFiles({ log: `# agent-collab log\n\n## ${at(0)} — Plan written\n`, debug });
    const r = await renderApp({ phase: 'REVIEW' }, { files });
    await r.press('4');
    await waitFor(() => expect(r.frame()).toContain('event 199'));
    await r.press(KEY.home);
    await waitFor(() => expect(r.frame()).toContain('Plan written'));
    expect(r.frame()).not.toContain('event 199');
    await r.press(KEY.end);
    await waitFor(() => expect(r.frame()).toContain('event 199'));
    expect(r.frame()).not.toContain('Plan written');
  });

  it('says so when there are no events yet', async () => {
    const r = await renderApp({ phase: 'REVIEW' }, { files: fakeFiles({ log: '# agent-collab log\n' }) });
    await r.press('4');
    await waitFor(() => expect(r.frame()).toContain('No events yet'));
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
