import { describe, expect, it } from 'vitest';
import { conversationLines } from '../../../src/ui/line-source.js';
import { FOLLOW, scrollViewport, TOP, truncate, visibleRange, wrapText } from '../../../src/ui/lines.js';
import type { ConversationEntry } from '../../../src/ui/view-model.js';

describe('screen lines', () => {
  it('wraps at spaces within the width, and counts wide characters as two columns', () => {
    expect(wrapText('the quick brown fox jumps', 10)).toEqual(['the quick', 'brown fox', 'jumps']);
    expect(wrapText('a\nb', 10)).toEqual(['a', 'b']);
    expect(wrapText('计划计划计划', 4)).toEqual(['计划', '计划', '计划']);
    expect(truncate('abcdefgh', 5)).toBe('abcd…');
  });

  it('labels messages with the role and keeps tool calls on one line until expanded', () => {
    const entries: ConversationEntry[] = [
      { id: 1, who: 'planner', kind: 'message', text: 'line one\nline two', detail: null },
      { id: 2, who: 'planner', kind: 'command', text: '$ npm test', detail: 'ok 1\nok 2', status: 'ok' },
    ];
    expect(conversationLines(entries, 60, false).map((l) => l.text)).toEqual([
      'planner',
      '  line one',
      '  line two',
      '  $ planner: npm test ✓ [x]',
    ]);
    expect(
      conversationLines(entries, 60, true)
        .map((l) => l.text)
        .slice(3),
    ).toEqual(['  $ planner: npm test ✓', '      ok 1', '      ok 2']);
  });
});

describe('scroll window', () => {
  it('follows the end by default and shows only what fits', () => {
    expect(visibleRange(100, 10, FOLLOW)).toEqual({ start: 90, end: 100 });
    expect(visibleRange(5, 10, FOLLOW)).toEqual({ start: 0, end: 5 });
    expect(visibleRange(100, 10, TOP)).toEqual({ start: 0, end: 10 });
  });

  it('up / PgUp leave follow mode; End returns to it; Home goes to the top', () => {
    const up = scrollViewport(FOLLOW, 'scroll_up', 100, 10);
    expect(up).toEqual({ top: 89, follow: false });
    expect(visibleRange(120, 10, up).start).toBe(89); // new lines do not move it
    expect(scrollViewport(up, 'page_up', 100, 10).top).toBe(80);
    expect(scrollViewport(up, 'scroll_top', 100, 10)).toEqual({ top: 0, follow: false });
    expect(scrollViewport(up, 'scroll_bottom', 100, 10)).toEqual({ top: 90, follow: true });
    expect(scrollViewport({ top: 89, follow: false }, 'scroll_down', 100, 10)).toEqual({ top: 90, follow: true });
    expect(scrollViewport(TOP, 'page_down', 100, 10).top).toBe(9);
    expect(scrollViewport(FOLLOW, 'scroll_up', 5, 10)).toBe(FOLLOW); // everything fits: nothing to scroll
  });
});

describe('half-page scrolling', () => {
  it('moves half the window and stops at the ends; down to the end follows the stream again', () => {
    const top = { top: 0, follow: false };
    expect(scrollViewport(top, 'half_page_down', 100, 20)).toEqual({ top: 10, follow: false });
    expect(scrollViewport({ top: 75, follow: false }, 'half_page_down', 100, 20)).toEqual({ top: 80, follow: true });
    expect(scrollViewport({ top: 5, follow: false }, 'half_page_up', 100, 20)).toEqual({ top: 0, follow: false });
  });
});
