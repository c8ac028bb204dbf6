// Issue 20 (Goal input habit): typed into the real App, the goal box (and the other text boxes) edit at the cursor,
// take new lines, keep a paste's lines without sending it, and go through earlier goals and messages with ↑/↓.
/* eslint-disable no-control-regex -- the frames are matched with their escape sequences (the cursor is one) */
import chalk from 'chalk';
import { cleanup } from 'ink-testing-library';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inputHistory } from '../../../src/ui/input-history.js';
import { KEY, renderApp, sleep, waitFor } from './ui-helpers.js';

const level = chalk.level;
beforeEach(() => {
  chalk.level = 1; // styles drawn as on a terminal: the cursor is an inverse cell
});
afterEach(() => {
  cleanup();
  chalk.level = level;
});

const REFINING = { phase: 'REFINE_GOAL', goal: '', awaiting: { kind: 'goal' } } as const;
const LEFT = '\u001b[D';
const CTRL_LEFT = '\u001b[1;5D';
const ALT_B = '\u001bb';
const DELETE = '\u001b[3~';
const CTRL_A = '\u0001';
const CTRL_E = '\u0005';
const CTRL_J = '\n';
const CTRL_K = '\u000b';
const CTRL_W = '\u0017';
const PASTE = (text: string): string => `\u001b[200~${text}\u001b[201~`;

const plain = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '');
const goalRows = (frame: string): string[] => {
  const lines = plain(frame).split('\n');
  const first = lines.findIndex((l) => l.includes('goal ›'));
  const out: string[] = [];
  for (let i = first; i >= 0 && i < lines.length && !/╰/.test(lines[i] ?? ''); i++)
    out.push((lines[i] ?? '').replace(/^│\s?|\s*│$/g, ''));
  return out.filter((l) => !l.trim().startsWith('(')); // the text's rows, not the "(n line(s) above)" note
};

describe('the goal box edits at the cursor', () => {
  it('← then typing inserts in the middle; Enter sends the whole text', async () => {
    const r = await renderApp(REFINING);
    await r.type('add flag');
    await r.press(...Array<string>(4).fill(LEFT));
    await r.type('a --verbose ');
    await waitFor(() => expect(plain(r.frame())).toContain('goal › add a --verbose flag'));
    // The cursor (an inverse cell) is on the `f` it was moved to, not after the text.
    expect(r.frame()).toMatch(/verbose \u001b\[7mf\u001b\[27mlag/);
    await r.press(KEY.enter);
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'user_message', text: 'add a --verbose flag' }]));
  });

  it('Ctrl+A / Ctrl+E, word jumps, Ctrl+W, Delete and Ctrl+K edit where the cursor is', async () => {
    const r = await renderApp(REFINING);
    await r.type('fix the login bug');
    await r.press(CTRL_A, DELETE, DELETE, DELETE, DELETE); // "the login bug"
    await r.press(CTRL_E, CTRL_LEFT, ALT_B, CTRL_W); // cursor before "login": "the " removed
    await waitFor(() => expect(goalRows(r.frame())[0]).toMatch(/goal › login bug\s*$/));
    await r.type('repair ');
    await r.press(CTRL_K); // everything after the cursor
    await r.type('the login form');
    await r.press(KEY.enter);
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'user_message', text: 'repair the login form' }]));
  });

  it('Home and ↑ edit the text instead of scrolling the conversation while the box has the keyboard', async () => {
    const r = await renderApp(REFINING);
    await r.type('bc');
    await r.press(KEY.home);
    await r.type('a');
    await waitFor(() => expect(plain(r.frame())).toContain('goal › abc'));
  });
});

describe('keys faster than Ink reads them', () => {
  it('control keys in one read with text (Ink splits only at ESC) are each obeyed, Ctrl+C included', async () => {
    let quit = 0;
    const r = await renderApp(REFINING, {
      onQuit: () => {
        quit++;
      },
    });
    r.stdin.write('fix the bug');
    r.stdin.write(`${CTRL_W}${CTRL_W}ok`);
    await waitFor(() => expect(goalRows(r.frame())[0]).toMatch(/goal › fix ok\s*$/));
    r.stdin.write(`!${'\u0003'}`);
    await waitFor(() => expect(quit).toBe(1));
  });
});

describe('more than one line', () => {
  it('Ctrl+J adds a line, the box grows, and Enter sends both lines as one message', async () => {
    const r = await renderApp(REFINING);
    await r.type('first line');
    await r.press(CTRL_J);
    await r.type('second line');
    await waitFor(() =>
      expect(goalRows(r.frame())).toEqual([
        expect.stringMatching(/goal › first line\s*$/),
        expect.stringMatching(/^\s+second line\s*$/),
      ]),
    );
    expect(r.engine.sent).toEqual([]);
    await r.press(KEY.enter);
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'user_message', text: 'first line\nsecond line' }]));
  });

  it('past six lines the box scrolls with the cursor and says how many lines are out of sight', async () => {
    const r = await renderApp(REFINING);
    for (let i = 1; i <= 8; i++) {
      await r.type(`line ${i}`);
      if (i < 8) await r.press(CTRL_J);
    }
    await waitFor(() => expect(goalRows(r.frame())).toHaveLength(6));
    expect(goalRows(r.frame()).at(-1)).toMatch(/line 8/);
    expect(plain(r.frame())).toContain('(2 line(s) above)');
    await r.press(KEY.up, KEY.up, KEY.up, KEY.up, KEY.up, KEY.up, KEY.up); // to the first line
    await waitFor(() => expect(goalRows(r.frame())[0]).toMatch(/goal › line 1/));
    expect(plain(r.frame())).toContain('(2 below)');
  });
});

describe('a pasted text', () => {
  it('with bracketed paste: its lines are kept and nothing is sent until Enter', async () => {
    const r = await renderApp(REFINING);
    r.stdin.write(PASTE('Add a greeting module.\rIt says hello.\r\rTests: one per language.'));
    await waitFor(() => expect(goalRows(r.frame()).length).toBe(4));
    await sleep(30);
    expect(r.engine.sent).toEqual([]);
    await r.press(KEY.enter);
    await waitFor(() =>
      expect(r.engine.sent).toEqual([
        { type: 'user_message', text: 'Add a greeting module.\nIt says hello.\n\nTests: one per language.' },
      ]),
    );
  });

  it('a paste that arrives in pieces (a read ending on its CR) is still one text', async () => {
    const r = await renderApp(REFINING);
    r.stdin.write('\u001b[200~one');
    r.stdin.write('\r');
    r.stdin.write('two\u001b[201~');
    await waitFor(() => expect(goalRows(r.frame()).length).toBe(2));
    expect(r.engine.sent).toEqual([]);
  });

  it('a fast burst holding line breaks (no paste marks) is text, not Enter', async () => {
    const r = await renderApp(REFINING);
    r.stdin.write('alpha\rbeta');
    await waitFor(() => expect(goalRows(r.frame()).length).toBe(2));
    await sleep(30);
    expect(r.engine.sent).toEqual([]);
  });

  it('a paste while the box does not have the keyboard is no command (a pasted "q" does not quit)', async () => {
    let quit = 0;
    const r = await renderApp(
      { phase: 'DONE', awaiting: null },
      {
        onQuit: () => {
          quit++;
        },
      },
    );
    r.stdin.write(PASTE('q'));
    await sleep(50);
    expect(quit).toBe(0);
  });
});

describe('↑/↓ through earlier goals and messages', () => {
  it('↑ recalls the newest first, ↓ comes back to the text being typed; what is sent is added', async () => {
    const history = inputHistory(['an earlier goal', 'an older one']);
    const r = await renderApp(REFINING, { inputHistory: history });
    await r.type('half a thought');
    await r.press(KEY.up);
    await waitFor(() => expect(plain(r.frame())).toContain('goal › an earlier goal'));
    await r.press(KEY.up);
    await waitFor(() => expect(plain(r.frame())).toContain('goal › an older one'));
    await r.press(KEY.down, KEY.down);
    await waitFor(() => expect(plain(r.frame())).toContain('goal › half a thought'));
    await r.press(KEY.enter);
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'user_message', text: 'half a thought' }]));
    expect(history.entries()).toEqual(['half a thought', 'an earlier goal', 'an older one']);
  });

  it('the question dialog’s answer box shares the editor: ← inserts, ↑ recalls an earlier message', async () => {
    const history = inputHistory(['use npm']);
    const r = await renderApp(
      {
        phase: 'EXECUTE',
        awaiting: {
          kind: 'question',
          role: 'planner',
          text: 'Should I use yarn or npm?',
          action: { kind: 'execute_step', step: 1 },
        },
      },
      { inputHistory: history },
    );
    await r.type('npm plese');
    await r.press(LEFT, LEFT);
    await r.type('a');
    await waitFor(() => expect(plain(r.frame())).toContain('answer › npm please'));
    await r.press(KEY.up);
    await waitFor(() => expect(plain(r.frame())).toContain('answer › use npm'));
    await r.press(KEY.enter);
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'answer', text: 'use npm' }]));
  });

  it('the message after an interrupt (Esc, then m) takes new lines and pastes the same way', async () => {
    const r = await renderApp({
      phase: 'WRITE_PLAN',
      awaiting: { kind: 'interrupted', role: 'planner', action: { kind: 'write_plan' } },
    });
    await r.press('m');
    await waitFor(() => expect(plain(r.frame())).toContain('message ›'));
    await r.type('keep it short');
    await r.press(CTRL_J);
    r.stdin.write(PASTE('one step\rper file'));
    await waitFor(() => expect(plain(r.frame())).toContain('per file'));
    expect(r.engine.sent).toEqual([]);
    await r.press(KEY.enter);
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'answer', text: 'keep it short\none step\nper file' }]));
  });
});

describe('the cursor with NO_COLOR', () => {
  it('is still an inverse cell where it is (a style, not a colour)', async () => {
    const r = await renderApp(REFINING, { colors: false });
    await r.type('abc');
    await r.press(LEFT, LEFT);
    await waitFor(() => expect(r.frame()).toMatch(/goal › a\u001b\[7mb\u001b\[27mc/));
    expect(r.frame()).not.toMatch(/\u001b\[3[0-9]m/); // no colour anywhere
  });
});
