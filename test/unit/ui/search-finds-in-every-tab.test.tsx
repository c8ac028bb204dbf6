// Issue 20, "Scrolling": `/` search with n / N in every tab, as in less, lazygit and k9s. Enter finds the first
// match at or below the view and scrolls it into sight, the matches are in inverse (NO_COLOR keeps it), n / N go
// on and wrap with a notice, a capital makes the search case-sensitive, Esc clears it.
import chalk from 'chalk';
import { cleanup } from 'ink-testing-library';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EngineOutput } from '../../../src/core/events.js';
import type { CodeReviewState } from '../../../src/core/types.js';
import { App } from '../../../src/ui/App.js';
import { stateIn } from '../../helpers/states.js';
import { renderSized } from './sized-terminal.js';
import { FakeEngine, fakeFiles, KEY, renderApp, sleep, waitFor, type Rendered } from './ui-helpers.js';

afterEach(() => cleanup());
// Styles drawn as on a terminal (chalk is Ink's colour library): the matches are inverse cells.
const level = chalk.level;
beforeAll(() => {
  chalk.level = 1;
});
afterAll(() => {
  chalk.level = level;
});

// eslint-disable-next-line no-control-regex
const plain = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '');
const INVERSE = '\u001b[7m';

/** A planner message of `n` numbered lines; line `needleAt` (and `alsoAt`) says "the Needle is here". */
function message(n: number, needles: number[]): EngineOutput {
  const text = Array.from({ length: n }, (_, i) =>
    needles.includes(i + 1) ? `line ${i + 1}: the Needle is here` : `line ${i + 1}: hay`,
  ).join('\n');
  return { type: 'agent_event', role: 'planner', event: { type: 'text', text } };
}

async function withConversation(lines: number, needles: number[], colors = true): Promise<Rendered> {
  const r = await renderApp({ phase: 'REVIEW', iteration: 1 }, { colors });
  r.engine.emit(message(lines, needles));
  await waitFor(() => expect(r.frame()).toContain(`line ${lines}: hay`));
  await r.press(KEY.home); // the view at the top: the search starts there
  await waitFor(() => expect(r.frame()).toContain('line 1: hay'));
  return r;
}

async function search(r: Rendered, query: string): Promise<void> {
  await r.press('/');
  await waitFor(() => expect(plain(r.frame())).toContain('Enter: search'));
  await r.type(query);
  await r.press(KEY.enter);
}

/** The tab's lines holding a highlighted match (without styling); the tab bar, whose tab is inverse, is not one. */
const highlighted = (frame: string): string[] =>
  frame
    .split('\n')
    .slice(1)
    .filter((l) => l.includes(INVERSE))
    .map(plain);

describe('/ search in the Conversation tab', () => {
  it('Enter scrolls the first match below the view into sight and marks it; n goes on, then wraps with a notice', async () => {
    const r = await withConversation(200, [120, 170]);
    expect(r.frame()).not.toContain('line 120:');
    await search(r, 'needle');
    await waitFor(() => expect(highlighted(r.frame())).toEqual(['  line 120: the Needle is here']));
    expect(r.frame()).not.toContain('line 1: hay'); // scrolled
    expect(plain(r.frame())).toContain('/needle');
    await r.press('n');
    await waitFor(() => expect(highlighted(r.frame())).toContain('  line 170: the Needle is here'));
    await r.press('n');
    await waitFor(() => expect(plain(r.frame())).toContain('search wrapped to the top'));
    expect(highlighted(r.frame())).toContain('  line 120: the Needle is here');
    await r.press('N');
    await waitFor(() => expect(plain(r.frame())).toContain('search wrapped to the end'));
    expect(highlighted(r.frame())).toContain('  line 170: the Needle is here');
    expect(r.engine.sent).toEqual([]); // n and N only read
  });

  it('smart case: a capital makes it case-sensitive; without a match it says so', async () => {
    const r = await withConversation(60, [40]);
    await search(r, 'NEEDLE');
    await waitFor(() => expect(plain(r.frame())).toContain('no match for “NEEDLE”'));
    expect(highlighted(r.frame())).toEqual([]);
    await search(r, 'Needle');
    await waitFor(() => expect(highlighted(r.frame())).toEqual(['  line 40: the Needle is here']));
  });

  it('a query and its Enter arriving in one input (a paste, a fast terminal) search', async () => {
    const r = await withConversation(60, [40]);
    await r.press('/');
    await r.press('needle\r');
    await waitFor(() => expect(highlighted(r.frame())).toEqual(['  line 40: the Needle is here']));
    expect(plain(r.frame())).not.toContain('Enter: search');
  });

  it('the match stays visible without colour (NO_COLOR): inverse is a style', async () => {
    const r = await withConversation(60, [40], false);
    await search(r, 'needle');
    await waitFor(() => expect(highlighted(r.frame())).toEqual(['  line 40: the Needle is here']));
    // eslint-disable-next-line no-control-regex
    expect(r.frame()).not.toMatch(/\u001b\[(3[0-7]|9[0-7])m/);
  });

  it('Esc closes the prompt; Esc then clears the highlight; Backspace on an empty prompt closes it', async () => {
    const r = await withConversation(60, [10]);
    await r.press('/');
    await r.type('nee');
    await waitFor(() => expect(plain(r.frame())).toContain('/nee'));
    await r.press(KEY.esc);
    await waitFor(() => expect(plain(r.frame())).not.toContain('Enter: search'));
    await search(r, 'needle');
    await waitFor(() => expect(highlighted(r.frame())).toHaveLength(1));
    await r.press(KEY.esc);
    await waitFor(() => expect(highlighted(r.frame())).toEqual([]));
    expect(plain(r.frame())).not.toContain('/needle');
    await r.press('/', KEY.backspace);
    await waitFor(() => expect(plain(r.frame())).not.toContain('Enter: search'));
    expect(r.engine.sent).toEqual([]);
  });

  it('in the goal box / is text: the search opens once Esc has left the box', async () => {
    const r = await renderApp({ phase: 'REFINE_GOAL', awaiting: { kind: 'goal' } });
    await r.type('a/b');
    await waitFor(() => expect(plain(r.frame())).toContain('goal › a/b'));
    expect(plain(r.frame())).not.toContain('Enter: search');
    await r.press(KEY.esc, '/');
    await waitFor(() => expect(plain(r.frame())).toContain('Enter: search'));
  });
});

describe('/ search in the other tabs', () => {
  const PLAN = ['# Plan', '', ...Array.from({ length: 80 }, (_, i) => `plan line ${i + 1}`), 'the Needle step'].join(
    '\n',
  );
  const COMMENTS = ['[CHANGES_REQUIRED]', '', ...Array.from({ length: 80 }, () => 'hay'), 'a needle here'].join('\n');
  // log.md's entries, the Log tab's events: one per line, the last one far below the first.
  const entry = (title: string, i: number): string => `## 2026-01-01T00:${String(i).padStart(2, '0')}:00Z — ${title}`;
  const LOG = [
    '# log',
    ...Array.from({ length: 59 }, (_, i) => entry(`log ${i + 1}`, i)),
    entry('needle in log.md', 59),
  ].join('\n');

  it.each([
    { key: '2', tab: '[2:Plan]', match: 'the Needle step' },
    { key: '3', tab: '[3:Comments]', match: 'a needle here' },
    { key: '4', tab: '[4:Log]', match: 'needle in log.md' },
  ])('$tab: the match far below is scrolled into sight and marked', async ({ key, tab, match }) => {
    const r = await renderApp(
      { phase: 'REVIEW', iteration: 1 },
      { files: fakeFiles({ plan: PLAN, comments: COMMENTS, log: LOG, debug: '' }) },
    );
    await r.press(key, KEY.home);
    await waitFor(() => expect(plain(r.frame())).toContain(tab));
    await waitFor(() => expect(plain(r.frame())).not.toContain(match));
    await search(r, 'needle');
    // In the Log tab the match selects its event, whose whole line is drawn inverse.
    const marked = key === '4' ? expect.stringContaining(match) : match;
    await waitFor(() => expect(highlighted(r.frame())).toEqual([marked]));
  });

  it('Status: the refined goal is found and marked', async () => {
    const r = await renderApp({ phase: 'REVIEW', iteration: 1, goal: 'make the needle sharper' });
    await r.press('5');
    await waitFor(() => expect(r.frame()).toContain('[5:Status]'));
    await search(r, 'sharper');
    await waitFor(() => expect(highlighted(r.frame())).toEqual([expect.stringContaining('make the needle sharper')]));
  });

  it('Code: the diff under review is searched', async () => {
    const diff = [
      'diff --git a/a.ts b/a.ts',
      ...Array.from({ length: 60 }, (_, i) => `+const x${i} = ${i};`),
      '+needle();',
    ];
    const codeReview: CodeReviewState = {
      mode: 'final',
      maxRounds: 3,
      limit: 3,
      round: 1,
      step: null,
      baseTree: null,
      diff: diff.join('\n'),
      comments: null,
      tests: [],
      approved: false,
    };
    const r = await renderApp({ phase: 'CODE_REVIEW', codeReview });
    await r.press('6');
    await waitFor(() => expect(r.frame()).toContain('[6:Code]'));
    await search(r, 'needle()');
    await waitFor(() => expect(highlighted(r.frame())).toEqual(['+needle();']));
  });
});

describe('/ while a dialog asks', () => {
  const PLAN = ['# Plan', '', ...Array.from({ length: 80 }, (_, i) => `plan line ${i + 1}`), 'the Needle step'].join(
    '\n',
  );
  it('searches the tab behind it; the dialog stays open and nothing reaches the run', async () => {
    const r = await renderApp(
      { phase: 'REVIEW', iteration: 5, awaiting: { kind: 'arbitration', iteration: 5 } },
      { files: fakeFiles({ plan: PLAN }) },
    );
    await r.press(KEY.tab);
    await waitFor(() => expect(r.frame()).toContain('[2:Plan]'));
    await search(r, 'needle');
    await waitFor(() => expect(highlighted(r.frame())).toEqual(['the Needle step']));
    expect(r.frame()).toContain('still asks for changes after 5 rounds');
    await r.press('n', KEY.esc);
    await sleep(30);
    expect(r.engine.sent).toEqual([]);
    // The dialog's own keys still decide.
    await r.press('2');
    await waitFor(() => expect(r.frame()).toContain('More rounds:'));
  });
});

describe('a huge conversation', () => {
  it('is searched a slice at a time: the screen says it is searching, then shows the match', async () => {
    const r = await renderApp({ phase: 'REVIEW', iteration: 1 });
    // 1000 entries of 200 lines: the 200,000 lines the conversation can hold; the one match is in the last.
    for (let i = 0; i < 1000; i++) {
      const text = Array.from({ length: 200 }, (_, k) =>
        i === 999 && k === 150 ? 'the only Needle' : `entry ${i} line ${k}`,
      ).join('\n');
      r.engine.emit({ type: 'agent_event', role: 'planner', event: { type: 'text', text } });
    }
    await waitFor(() => expect(r.frame()).toContain('entry 999 line 199'), 10_000);
    await r.press(KEY.home);
    await waitFor(() => expect(r.frame()).toContain('entry 0 line 0'));
    const from = r.frames.length;
    await search(r, 'needle');
    await waitFor(() => expect(highlighted(r.frame())).toEqual(['  the only Needle']), 20_000);
    const shown = r.frames.slice(from).map(plain);
    expect(shown.some((f) => f.includes('searching…'))).toBe(true);
  }, 60_000);
});

describe('the layout at 80×24', () => {
  it('every frame keeps the tab bar first and the status bar on the last two rows, the search line above it', async () => {
    const engine = new FakeEngine(stateIn('REVIEW', { iteration: 1 }));
    const r = await renderSized(<App engine={engine} files={fakeFiles()} tickMs={0} />, 80, 24);
    try {
      engine.emit(message(60, [30]));
      await waitFor(() => expect(plain(r.frame())).toContain('line 60: hay'));
      const from = r.stdout.frames.length;
      await r.press('/', 'n', 'e', 'e', 'd', 'l', 'e', KEY.enter, 'n', 'N');
      await waitFor(() => expect(plain(r.frame())).toContain('search wrapped to the end'));
      const frames = r.stdout.frames
        .slice(from)
        .map((f) => plain(f).split('\n'))
        .filter((l) => l.length > 1);
      expect(frames.length).toBeGreaterThan(3);
      for (const rows of frames) {
        expect(rows.length).toBeLessThanOrEqual(24);
        expect(rows[0]).toContain('1:Conversation');
        expect(rows.at(-3)).toMatch(/^\//);
        expect(rows.at(-2)).toMatch(/^REVIEW\s+iter 1\/5\s+MANUAL/);
        expect(rows.at(-1)).toContain('Ctrl+C quit');
      }
    } finally {
      r.unmount();
    }
  });
});
