// Issue 20, defects 1 and 4, in a real terminal (tmux, 80×24) on the built CLI: with the help open the tab bar stays
// on the first row and the status bar's two lines on the last two; with NO_COLOR the screen has no colour but keeps
// its styles (bold, dim, inverse: the goal box's cursor stays visible).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempRepoWithFakeScript } from '../helpers/repo.js';
import { cliCommand, hasTmux, TmuxPane } from '../helpers/tmux.js';
import { colourParams, layoutProblems, styleParams } from '../helpers/tui-layout.js';

const SIZE = { columns: 80, rows: 24 };
let pane: TmuxPane;
const screen = (): string => pane.screen();

/** The whole layout holds (test/helpers/tui-layout.ts), with goal refinement's status bar at the bottom. */
function expectLayout(s: string): void {
  expect(layoutProblems(pane.screen('joined'), SIZE), s).toEqual([]);
  const rows = s.trimEnd().split('\n');
  expect(rows.at(-2), s).toMatch(/^REFINE_GOAL\s+iter 0\/\d+\s+MANUAL/);
  expect(rows.at(-1), s).toContain('Ctrl+C quit');
}

describe.skipIf(!hasTmux)('the built TUI at 80×24 in tmux', () => {
  let repo: ReturnType<typeof tempRepoWithFakeScript>;

  beforeEach(() => {
    repo = tempRepoWithFakeScript({ rules: [] });
    pane = new TmuxPane('layout');
    pane.open(repo.dir, SIZE.columns, SIZE.rows);
  });

  afterEach(() => {
    pane.close();
    repo?.cleanup();
  });

  async function start(extraEnv: string): Promise<void> {
    await pane.prompt();
    pane.type(`clear; ${cliCommand(repo.home, `${extraEnv} EDITOR=true`)}`);
    pane.keys('Enter');
    await pane.until('the goal box', (s) => s.includes('waiting for your goal') && s.includes('goal ›'));
  }

  it.each([
    { name: 'in colour', env: 'TERM=xterm-256color' },
    { name: 'with NO_COLOR', env: 'NO_COLOR=1' },
  ])(
    '$name, the help open keeps the tab bar on the first row and the status bar on the last two',
    async (c) => {
      await start(c.env);
      expectLayout(screen());
      pane.keys('Escape');
      await pane.until('the keys, out of the goal box', (s) => s.includes('? help'));
      pane.type('?');
      const s = await pane.until('the help', (x) => x.includes('Esc / ? / q: close'));
      expectLayout(s);
      pane.keys('Down', 'Down', 'Down');
      await new Promise((r) => setTimeout(r, 300));
      expectLayout(screen());
    },
    60_000,
  );

  it('with NO_COLOR there is no colour, but bold, dim and the inverse cursor of the goal box stay', async () => {
    await start('NO_COLOR=1');
    const styled = pane.screen('styled');
    expect(colourParams(styled)).toEqual([]);
    const styles = styleParams(styled);
    expect(styles.has('1'), 'bold').toBe(true);
    expect(styles.has('2'), 'dim').toBe(true);
    expect(styles.has('7'), 'inverse').toBe(true);
    // The goal box's cursor is an inverse cell right after the prompt.
    // eslint-disable-next-line no-control-regex
    expect(styled).toMatch(/goal › (\u001b\[[0-9;]*m)*\u001b\[[0-9;]*7[0-9;]*m /);
  }, 60_000);
});
