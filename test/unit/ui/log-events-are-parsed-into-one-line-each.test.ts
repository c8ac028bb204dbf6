// Issue 20: the Log tab shows parsed events (time, who, kind, a one-line summary, expandable), not raw JSON.
import { describe, expect, it } from 'vitest';
import { debugEvent, logEvents, logMdEvents } from '../../../src/ui/log-events.js';
import {
  logLayout,
  logViewport,
  MAX_EXPANDED_LINES,
  moveSelection,
  NEWEST,
  toggleSelected,
} from '../../../src/ui/tabs/log-tab.js';

const T = '2026-01-01T12:00:00.000Z';
const ev = (json: unknown, who = 'planner'): string => `${T} [${who}] ${JSON.stringify(json)}`;

describe('debug.log lines as events', () => {
  it.each([
    [{ type: 'text', text: 'Two\nlines' }, 'text', 'Two lines'],
    [{ type: 'tool_call', name: 'Read', input: { file: 'a.ts' } }, 'tool_call', 'Read {"file":"a.ts"}'],
    [{ type: 'tool_result', output: 'boom', isError: true }, 'tool_result', 'error: boom'],
    [{ type: 'command', command: 'npm test', status: 'failed', exitCode: 1 }, 'command', 'failed (exit 1): $ npm test'],
    [{ type: 'file_change', path: 'src/a.ts', kind: 'update' }, 'file_change', 'update src/a.ts'],
    [{ type: 'error', kind: 'usage_limit', message: 'limit hit' }, 'error', 'usage_limit: limit hit'],
    [{ type: 'retry', attempt: 2, maxAttempts: 5, message: 'overloaded' }, 'retry', 'attempt 2/5: overloaded'],
    [{ type: 'usage', inputTokens: 10, outputTokens: 5, costUsd: 0.01 }, 'usage', '10 in · 5 out · $0.0100'],
    [{ type: 'something_else', a: 1 }, 'something_else', '{"a":1}'],
  ])('%j → kind and summary', (json, kind, summary) => {
    const e = debugEvent(ev(json), 'k');
    expect(e).toMatchObject({ at: T, who: 'planner', kind, summary });
    expect(e.detail.split('\n')[0]).toBe(`type: ${json.type}`);
  });

  it('a plain line is text; a CLI stderr line is its kind; a line without its head is kept as it is', () => {
    expect(debugEvent(`${T} [engine] rejected go: nope`, 'k')).toMatchObject({
      who: 'engine',
      kind: 'text',
      summary: 'rejected go: nope',
    });
    expect(debugEvent(`${T} [claude stderr] warning: x`, 'k')).toMatchObject({ who: 'claude', kind: 'stderr' });
    expect(debugEvent('ted line {"type":"te', 'k')).toMatchObject({
      at: '',
      kind: 'text',
      summary: 'ted line {"type":"te',
    });
    expect(debugEvent(`${T} [planner] {"type":"text","te`, 'k')).toMatchObject({ kind: 'text' });
  });
});

describe('an expanded event', () => {
  it('shows each field on its line, a multi-line text as its own lines, nested values as indented JSON', () => {
    const e = debugEvent(ev({ type: 'tool_call', name: 'Edit', input: { file: 'a.ts', text: 'x\ny' } }), 'k');
    expect(e.detail).toBe(
      ['type: tool_call', 'name: Edit', 'input: {', '  "file": "a.ts",', '  "text": "x\\ny"', '}'].join('\n'),
    );
    const done = debugEvent(ev({ type: 'done', sessionId: 's1', text: '[APPROVED]\n\n## Comments' }), 'k');
    expect(done.detail).toBe(
      ['type: done', 'sessionId: s1', 'text:', '  [APPROVED]', '  ', '  ## Comments'].join('\n'),
    );
  });
});

describe('log.md entries and the merge', () => {
  it('reads each log.md entry with its bullets as the detail, and merges with debug.log by time', () => {
    const log = `# agent-collab log\n\n## 2026-01-01T11:59:00.000Z — Plan approved\n\n- iteration 2\n\n## 2026-01-01T12:00:30.000Z — Step 1 committed\n`;
    expect(logMdEvents(log).map((e) => [e.summary, e.detail])).toEqual([
      ['Plan approved', 'Plan approved\n\n- iteration 2'],
      ['Step 1 committed', 'Step 1 committed'],
    ]);
    const debug = [ev({ type: 'text', text: 'a' }), `${T} [engine] b`].join('\n');
    expect(logEvents(log, debug).map((e) => e.summary)).toEqual(['Plan approved', 'a', 'b', 'Step 1 committed']);
  });

  it('gives two identical lines different keys (one expands, not both)', () => {
    const line = `${T} [engine] same`;
    const events = logEvents(null, `${line}\n${line}`);
    expect(new Set(events.map((e) => e.key)).size).toBe(2);
    const sel = toggleSelected(events, NEWEST);
    const layout = logLayout(events, sel, 80);
    expect(layout.lines.map((l) => l.text.slice(0, 1))).toEqual(['▸', '▾', ' ']);
  });
});

describe('selection and window', () => {
  const events = logEvents(null, Array.from({ length: 50 }, (_, i) => `${T} [engine] event ${i}`).join('\n'));

  it('starts on the newest event, following; ↑ selects the one before and stops following', () => {
    const layout = logLayout(events, NEWEST, 80);
    expect(layout.lines[layout.selected]?.inverse).toBe(true);
    expect(layout.lines[49]?.text).toContain('event 49');
    expect(logViewport(layout, NEWEST, 10)).toEqual({ top: 40, follow: true });
    const up = moveSelection(NEWEST, 'scroll_up', events.length, 10);
    expect(logLayout(events, up, 80).lines[48]?.inverse).toBe(true);
    expect(logViewport(logLayout(events, up, 80), up, 10).follow).toBe(false);
  });

  it('Home selects the first event and shows it; moves stop at the ends', () => {
    const top = moveSelection(NEWEST, 'scroll_top', events.length, 10);
    const layout = logLayout(events, top, 80);
    expect(layout.selected).toBe(0);
    expect(logViewport(layout, top, 10).top).toBe(0);
    expect(moveSelection(top, 'scroll_up', events.length, 10).fromEnd).toBe(49);
    expect(moveSelection(NEWEST, 'scroll_down', events.length, 10).fromEnd).toBe(0);
  });

  it('an expanded event shows as much of itself as fits, capped at MAX_EXPANDED_LINES', () => {
    const huge = logEvents(null, `${T} [engine] x\n${ev({ type: 'text', text: 'y'.repeat(80 * 500) })}`);
    const sel = toggleSelected(huge, NEWEST);
    const layout = logLayout(huge, sel, 84);
    expect(layout.last - layout.first).toBe(MAX_EXPANDED_LINES + 1); // head, the lines, "… more"
    expect(layout.lines.at(-1)?.text).toMatch(/… \d+ more line\(s\)/);
    // The window starts at the selected event's head, not at the end of its detail.
    expect(logViewport(layout, sel, 10).top).toBe(layout.first);
  });
});
