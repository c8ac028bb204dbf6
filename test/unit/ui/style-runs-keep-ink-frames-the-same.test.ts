// The bundle gives Ink's styledCharsToString each line with its same-styled cells merged (src/ui/style-runs.ts):
// every frame's text must stay byte for byte what Ink would have written cell by cell.
import { styledCharsFromTokens, styledCharsToString, tokenize } from '@alcalzone/ansi-tokenize';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { mergeStyleRuns } from '../../../src/ui/style-runs.js';

const c = new Chalk({ level: 3 });

/** A screen row as Ink's Output builds it: styled cells, then blank unstyled cells to the terminal's width. */
function row(text: string, width = 60) {
  const cells = styledCharsFromTokens(tokenize(text));
  while (cells.length < width) cells.push({ type: 'char', value: ' ', fullWidth: false, styles: [] });
  return cells;
}

const LINES = [
  '',
  'plain text only',
  c.inverse.bold('[1:Conversation]') + ' 2:Plan  3:Comments ' + c.dim('5:Log ▸'),
  c.bold('bold') + c.dim('dim') + c.bold.dim('both') + ' ' + c.underline('under') + c.inverse(' inv '),
  c.cyan('cyan ') + c.red('red ') + c.bgBlue.white(' on blue ') + c.rgb(200, 100, 0)('truecolor') + ' end',
  c.bold('a') + c.bold('b') + c.bold.italic('c') + c.italic('d') + 'e',
  c.green('✔ 日本語 wide ') + c.yellow('emoji 👍🏽 ') + 'combining é',
  `${c.bold.cyan('nested ' + c.red('inner') + ' outer')} \u001b[1mopen bold never closed`,
];

describe('a frame line with same-styled cells merged', () => {
  it.each(LINES.map((l) => [JSON.stringify(l).slice(0, 50), l]))('is written exactly as cell by cell: %s', (_, l) => {
    const cells = row(l);
    const merged = mergeStyleRuns(cells);
    expect(styledCharsToString(merged)).toBe(styledCharsToString(cells));
  });

  it('holds one cell per run of styles, so the per-cell diff no longer runs for every blank cell', () => {
    const cells = row(c.bold('ab') + 'cd' + c.bold('ef'), 80);
    expect(mergeStyleRuns(cells).map((x) => x.value)).toEqual(['ab', 'cd', 'ef', ' '.repeat(74)]);
  });

  it('changes nothing in the cells it was given', () => {
    const cells = row(c.bold('ab') + 'cd');
    const before = JSON.stringify(cells);
    mergeStyleRuns(cells);
    expect(JSON.stringify(cells)).toBe(before);
  });

  it('is the same for lines of random styles', () => {
    const styles = [c.bold, c.dim, c.italic, c.inverse, c.red, c.bgGreen, c.bold.red, c.dim.inverse, c.reset];
    let seed = 7;
    const random = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let i = 0; i < 200; i++) {
      let line = '';
      for (let k = random(8); k >= 0; k--) line += styles[random(styles.length)]!('xy z'.slice(0, 1 + random(4)));
      const cells = row(line, 40);
      expect(styledCharsToString(mergeStyleRuns(cells))).toBe(styledCharsToString(cells));
    }
  });
});
