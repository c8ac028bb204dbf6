// The layout check the tmux tests apply to every screen they read (test/helpers/tui-layout.ts) finds each way a
// frame can break: a wrapped line, a tab bar off the first row, the status bar's lines apart or off the bottom, a
// box cut by the screen's edge or drawn over the status bar.
import { describe, expect, it } from 'vitest';
import { TAB_IDS } from '../../../src/ui/keymap.js';
import { TAB_TITLES } from '../../../src/ui/tabs/content.js';
import { layoutProblems } from '../../helpers/tui-layout.js';

const SIZE = { columns: 40, rows: 10 };
// A tab bar cut as narrow as a 40-column one gets: each tab's number and the first letter of its title.
const TABS = TAB_IDS.map((id, i) => `${i + 1}:${TAB_TITLES[id][0]}`).join(' ');
const PHASE = 'REVIEW  iter 0/5  MANUAL  waiting…';
const KEYS = 'Enter next round · ? help · Ctrl+C quit';
const BOX = ['╔══════╗', '║ Keys ║', '╚══════╝'];

const screen = (...rows: string[]): string => `${rows.join('\n')}\n`;
/** A 10-row screen: tab bar, `body` padded with blank rows, the status bar's two lines, one blank row below. */
const frame = (body: string[]): string =>
  screen(TABS, ...body, ...Array<string>(6 - body.length).fill(''), PHASE, KEYS, '');

describe('the TUI layout check', () => {
  it('passes a whole frame, with a box in the body', () => {
    expect(layoutProblems(frame(['text', ...BOX]), SIZE)).toEqual([]);
  });

  it('finds a line wider than the terminal (tmux -J gives a wrapped line back joined)', () => {
    expect(layoutProblems(frame(['x'.repeat(41)]), SIZE)).toEqual(['row 2 is 41 columns wide on a 40-column terminal']);
  });

  it('finds a tab bar that is not on the first row, or a second one', () => {
    const down = screen('scrolled text', TABS, '', '', '', '', '', PHASE, KEYS, '');
    expect(layoutProblems(down, SIZE)).toEqual([
      'the first row is not the tab bar: "scrolled text"',
      'row 2 is a second tab bar',
    ]);
  });

  it('finds the status bar collapsed onto one row, or not at the bottom', () => {
    const collapsed = screen(TABS, '', '', '', '', '', '', `${KEYS}  iter 0/5  MANUAL`, '', '');
    expect(layoutProblems(collapsed, SIZE)).toContain(
      'the status bar\'s first line is not on the next-to-last row: ""',
    );
    expect(layoutProblems(collapsed, SIZE).join('\n')).toMatch(/the last row is not the status bar's key line/);
    const high = screen(TABS, '', '', PHASE, KEYS, '', '', '', '', '');
    expect(layoutProblems(high, SIZE)).toEqual(['the last drawn row is row 5 of 10: the bottom is empty']);
  });

  it('finds a second status line in the body', () => {
    expect(layoutProblems(frame([PHASE]), SIZE)).toEqual(['row 2 holds a second status line']);
  });

  it('finds a box cut by the bottom of the screen or drawn over the status bar', () => {
    const cut = screen(TABS, '', '', '', '', '', BOX[0]!, BOX[1]!, PHASE, KEYS);
    expect(layoutProblems(cut, SIZE)).toContain('the box opened at row 7, column 1 is not whole on screen');
    const over = screen(TABS, '', '', '', '', '', BOX[0]!, BOX[1]!, BOX[2]!, KEYS);
    expect(layoutProblems(over, SIZE)).toContain('the box on rows 7–9 overlaps the tab bar or the status bar');
  });
});
