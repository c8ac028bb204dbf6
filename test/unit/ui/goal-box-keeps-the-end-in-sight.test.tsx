// Issue 20, defect 6: once the goal was wider than its box, the last typed character (and the cursor) went out of
// sight. The text is now cut at its start: what was typed last and the cursor stay visible, at any width.
import chalk from 'chalk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../../src/ui/App.js';
import { textWidth } from '../../../src/ui/lines.js';
import { stateIn } from '../../helpers/states.js';
import { renderSized, type SizedRender } from './sized-terminal.js';
import { FakeEngine, fakeFiles, waitFor } from './ui-helpers.js';

const opened: SizedRender[] = [];
const level = chalk.level;
beforeEach(() => {
  chalk.level = 1; // styles drawn as on a terminal: the cursor is an inverse cell
});
afterEach(() => {
  for (const r of opened.splice(0)) r.unmount();
  chalk.level = level;
});

// eslint-disable-next-line no-control-regex
const plain = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '');
// eslint-disable-next-line no-control-regex
const INVERSE_CELL = /\u001b\[7m \u001b\[27m/;

const goalRow = (frame: string): string => frame.split('\n').find((l) => plain(l).includes('goal ›')) ?? '';

describe('the goal box with a goal wider than itself', () => {
  it.each([80, 40])('at %i columns shows the last characters typed, then the cursor', async (columns) => {
    const engine = new FakeEngine(stateIn('REFINE_GOAL', { goal: '', awaiting: { kind: 'goal' } }));
    const r = await renderSized(<App engine={engine} files={fakeFiles()} tickMs={0} />, columns, 24);
    opened.push(r);
    const text = `${Array.from({ length: 12 }, (_, i) => `word${i}`).join(' ')} the end XYZ`;
    await r.press(...Array.from(text));
    await waitFor(() => expect(plain(goalRow(r.frame()))).toContain('XYZ'));
    const row = goalRow(r.frame());
    expect(textWidth(plain(row))).toBeLessThanOrEqual(columns);
    expect(plain(row)).toContain('…'); // the start is cut, not the end
    expect(plain(row)).toMatch(/the end XYZ\s*│$/);
    // The cursor (an inverse cell) comes right after the last character.
    expect(row).toMatch(new RegExp(`XYZ(\\u001b\\[[0-9;]*m)*${INVERSE_CELL.source}`));
  });
});
