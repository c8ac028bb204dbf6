// What a TUI screen read back from a terminal must look like, whatever is open: the tab bar on the first row, the
// status bar's two lines at the bottom, every bordered box (goal box, dialog, banner) whole in between, no line wider
// than the terminal (read with tmux's `capture-pane -J`, a line the terminal wrapped comes back joined, so too wide).
import { TAB_IDS } from '../../src/ui/keymap.js';
import { TAB_TITLES } from '../../src/ui/tabs/content.js';

const PHASE_LINE = /^[A-Z_]+ {2,}iter \d+\/\d+ {2,}(MANUAL|AUTO|PAUSING|PAUSED)\b/;
const TOP_LEFT = '┌╭╔';
const BOTTOM_LEFT = '└╰╚';
const TOP_RIGHT = '┐╮╗';
const BOTTOM_RIGHT = '┘╯╝';
const SIDE = '│║';

/** Each tab as the tab bar shows it at any width: its number and at least the first letter of its title. */
const isTabBar = (row: string): boolean => TAB_IDS.every((id, i) => row.includes(`${i + 1}:${TAB_TITLES[id][0]}`));

/** The bordered boxes on screen: rows and columns of their corners; a box that does not close is a problem. */
function boxes(
  rows: string[],
  problems: string[],
): Array<{ top: number; bottom: number; left: number; right: number }> {
  const found = [];
  for (let top = 0; top < rows.length; top++) {
    const cells = Array.from(rows[top]!);
    for (let left = 0; left < cells.length; left++) {
      if (!TOP_LEFT.includes(cells[left]!)) continue;
      let right = left + 1;
      while (right < cells.length && !TOP_RIGHT.includes(cells[right]!)) right++;
      let bottom = top + 1;
      while (bottom < rows.length && SIDE.includes(Array.from(rows[bottom]!)[left] ?? '')) bottom++;
      const last = Array.from(rows[bottom] ?? '');
      if (right >= cells.length || !BOTTOM_LEFT.includes(last[left] ?? '') || !BOTTOM_RIGHT.includes(last[right] ?? ''))
        problems.push(`the box opened at row ${top + 1}, column ${left + 1} is not whole on screen`);
      else found.push({ top, bottom, left, right });
    }
  }
  return found;
}

/** Everything wrong with the screen's layout (empty: fine). `screen` as `capture-pane -p -J` gives it. */
export function layoutProblems(screen: string, size: { columns: number; rows: number }): string[] {
  const problems: string[] = [];
  const rows = screen.replace(/\n$/, '').split('\n');
  if (rows.length > size.rows) problems.push(`${rows.length} rows on a ${size.rows}-row terminal (a line wrapped)`);
  rows.forEach((r, i) => {
    const width = Array.from(r.trimEnd()).length;
    if (width > size.columns)
      problems.push(`row ${i + 1} is ${width} columns wide on a ${size.columns}-column terminal`);
  });
  if (!isTabBar(rows[0] ?? '')) problems.push(`the first row is not the tab bar: ${JSON.stringify(rows[0])}`);
  rows.forEach((r, i) => i > 0 && isTabBar(r) && problems.push(`row ${i + 1} is a second tab bar`));
  const last = rows.map((r) => r.trim() !== '').lastIndexOf(true);
  if (last < size.rows - 2) problems.push(`the last drawn row is row ${last + 1} of ${size.rows}: the bottom is empty`);
  if (!PHASE_LINE.test(rows[last - 1] ?? ''))
    problems.push(`the status bar's first line is not on the next-to-last row: ${JSON.stringify(rows[last - 1])}`);
  if (/iter \d+\/\d+/.test(rows[last] ?? '') || !(rows[last] ?? '').trim())
    problems.push(`the last row is not the status bar's key line: ${JSON.stringify(rows[last])}`);
  rows.forEach(
    (r, i) => i !== last - 1 && PHASE_LINE.test(r) && problems.push(`row ${i + 1} holds a second status line`),
  );
  for (const box of boxes(rows, problems))
    if (box.top < 1 || box.bottom > last - 2)
      problems.push(`the box on rows ${box.top + 1}–${box.bottom + 1} overlaps the tab bar or the status bar`);
  return problems;
}

// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[([0-9;]*)m/g;

/** The SGR parameters on a `capture-pane -e` screen that set a colour (39/49, back to the default, are not one). */
export function colourParams(styled: string): string[] {
  return [...styled.matchAll(SGR)]
    .flatMap((m) => (m[1] ?? '').split(';'))
    .filter((p) => /^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$/.test(p));
}

/** Every SGR parameter on a `capture-pane -e` screen (1 bold, 2 dim, 7 inverse, …). */
export const styleParams = (styled: string): Set<string> =>
  new Set([...styled.matchAll(SGR)].flatMap((m) => (m[1] ?? '').split(';')));
