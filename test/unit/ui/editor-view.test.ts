// Issue 20 (Goal input habit): what a text box shows of its text — the cursor always in sight on a long line, and
// a multi-line text up to a few rows, then scrolled with the cursor.
import { describe, expect, it } from 'vitest';
import { editorView, type EditorRow } from '../../../src/ui/editor-view.js';
import { textWidth } from '../../../src/ui/lines.js';

const line = (r: EditorRow): string => `${r.before}${r.at === null ? '' : `[${r.at}]`}${r.after}`;
const width = (r: EditorRow): number => textWidth(r.before + (r.at ?? '') + r.after);

describe('the cursor’s line', () => {
  it('fits whole when it is short; the cursor is a cell after the text at its end', () => {
    expect(editorView({ value: 'abc', cursor: 3 }, 10, 6).rows.map(line)).toEqual(['abc[ ]']);
    expect(editorView({ value: 'abc', cursor: 1 }, 10, 6).rows.map(line)).toEqual(['a[b]c']);
  });

  it('longer than the box with the cursor at the end: the end and the cursor stay in sight, the start is cut', () => {
    const text = 'the quick brown fox jumps over the lazy dog XYZ';
    const [row] = editorView({ value: text, cursor: text.length }, 20, 6).rows;
    // An ellipsis, the last 18 characters, the cursor: 20 columns.
    expect(line(row!)).toBe(`…${text.slice(-18)}[ ]`);
    expect(row!.before.startsWith('…')).toBe(true);
    expect(row!.before.endsWith('XYZ')).toBe(true);
    expect(width(row!)).toBe(20);
  });

  it('with the cursor moved to the start of a long line, the start is shown and the end cut', () => {
    const text = 'the quick brown fox jumps over the lazy dog XYZ';
    const [row] = editorView({ value: text, cursor: 0 }, 20, 6).rows;
    expect(row!.before).toBe('');
    expect(row!.at).toBe('t');
    expect(row!.after.endsWith('…')).toBe(true);
    expect(width(row!)).toBeLessThanOrEqual(20);
  });

  it('with the cursor in the middle of a long line, the character under it is shown, both ends cut', () => {
    const text = `${'a'.repeat(40)}M${'z'.repeat(40)}`;
    const [row] = editorView({ value: text, cursor: 40 }, 20, 6).rows;
    expect(row!.at).toBe('M');
    expect(row!.before.startsWith('…')).toBe(true);
    expect(row!.after.endsWith('…')).toBe(true);
    expect(width(row!)).toBeLessThanOrEqual(20);
  });

  it('wide characters count two columns', () => {
    const text = '漢字'.repeat(20);
    const [row] = editorView({ value: text, cursor: text.length }, 21, 6).rows;
    expect(width(row!)).toBeLessThanOrEqual(21);
  });
});

describe('a multi-line text', () => {
  it('grows up to the row limit, the other lines cut at the box’s width', () => {
    const v = editorView({ value: `one\n${'x'.repeat(30)}\nthree`, cursor: 2 }, 10, 6);
    expect(v.rows.map(line)).toEqual(['on[e]', 'xxxxxxxxx…', 'three']);
    expect([v.above, v.below]).toEqual([0, 0]);
  });

  it('past the limit it scrolls so the cursor’s line is shown, and says how many lines are out of sight', () => {
    const value = Array.from({ length: 10 }, (_, i) => `line ${i}`).join('\n');
    const end = editorView({ value, cursor: value.length }, 20, 6);
    expect(end.rows.map((r) => r.before)).toEqual(['line 4', 'line 5', 'line 6', 'line 7', 'line 8', 'line 9']);
    expect([end.above, end.below]).toEqual([4, 0]);
    const start = editorView({ value, cursor: 0 }, 20, 6);
    expect(start.rows[0]).toEqual({ before: '', at: 'l', after: 'ine 0' });
    expect([start.above, start.below]).toEqual([0, 4]);
  });
});
