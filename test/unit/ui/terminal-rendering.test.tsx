// Rendering on real terminal sizes: the opening frame, 80×24, a resize, NO_COLOR, the bell / OSC 9 when input is needed, and a
// long stream that stays fast.
// chalk is Ink's own colour library (a dependency of ink): the tests switch its level on, as a colour terminal would.
import chalk from 'chalk';
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { App } from '../../../src/ui/App.js';
import { attentionSequence, supportsOsc9 } from '../../../src/ui/attention.js';
import { textWidth } from '../../../src/ui/lines.js';
import { colorsWanted } from '../../../src/ui/styled.js';
import { stateIn } from '../../helpers/states.js';
import { render } from 'ink';
import { OpeningScreen } from '../../../src/ui/OpeningScreen.js';
import { renderSized, SizedStdout, type SizedRender } from './sized-terminal.js';
import { FakeEngine, fakeFiles, renderApp, waitFor } from './ui-helpers.js';

const opened: SizedRender[] = [];
afterEach(() => {
  cleanup();
  for (const r of opened.splice(0)) r.unmount();
  vi.unstubAllEnvs();
});

// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[([0-9;]*)m/g;
const plain = (s: string): string => s.replace(SGR, '');
/** The SGR parameters that set a colour (foreground, background, bright, 256/true colour, default). */
function colourCodes(frame: string): string[] {
  const out: string[] = [];
  for (const m of frame.matchAll(SGR)) {
    for (const p of (m[1] ?? '').split(';')) {
      const n = Number(p);
      if ((n >= 30 && n <= 49) || (n >= 90 && n <= 107)) out.push(p);
    }
  }
  return out;
}

function reviewWaitingForGo(): FakeEngine {
  return new FakeEngine(
    stateIn('REVIEW', {
      iteration: 1,
      awaiting: { kind: 'go', action: { kind: 'review' } },
      usage: { inputTokens: 12_345, outputTokens: 6_789, cachedTokens: 0, costUsd: 0.42, durationMs: 61_000, calls: 3 },
    }),
  );
}

async function sized(engine: FakeEngine, columns: number, rows: number): Promise<SizedRender> {
  const r = await renderSized(
    <App engine={engine} files={fakeFiles({ plan: '# Plan\n' })} tickMs={0} />,
    columns,
    rows,
  );
  opened.push(r);
  return r;
}

function expectFits(frame: string, columns: number, rows: number): void {
  const lines = plain(frame).split('\n');
  expect(lines.length, frame).toBeLessThanOrEqual(rows);
  for (const l of lines) expect(textWidth(l), `line too wide: "${l}"`).toBeLessThanOrEqual(columns);
}

function expectEssentials(frame: string): void {
  const f = plain(frame);
  for (const tab of ['1:Conversation', '2:Plan', '3:Comments', '4:Log', '5:Status']) expect(f).toContain(tab);
  expect(f).toMatch(/REVIEW\s+iter 1\/5\s+MANUAL/);
  expect(f).toContain('19k tok $0.42');
  expect(f).toContain('Enter next round · a auto · s stop · ? help · Ctrl+C quit');
}

describe('the opening frame (drawn while the session opens)', () => {
  it('shows the tab bar and that the session is opening, within 80×24', () => {
    const stdout = new SizedStdout(80, 24);
    const instance = render(<OpeningScreen />, {
      stdout: stdout as unknown as NodeJS.WriteStream,
      debug: true,
      patchConsole: false,
    });
    onTestFinished(() => instance.unmount());
    const f = plain(stdout.lastFrame());
    for (const tab of ['[1:Conversation]', '2:Plan', '3:Comments', '4:Log', '5:Status']) expect(f).toContain(tab);
    expect(f).toContain('opening the session…');
    expectFits(stdout.lastFrame(), 80, 24);
  });
});

describe('terminal size', () => {
  it('at 80×24 nothing essential is cut: tabs, status bar, keys', async () => {
    const r = await sized(reviewWaitingForGo(), 80, 24);
    await waitFor(() => expectEssentials(r.frame()));
    expectFits(r.frame(), 80, 24);
    expect(plain(r.frame())).toContain('Next: reviewer — reviewing the plan (round 2). Enter: let it through');
  });

  it('re-lays out on resize (wide → 80×24 → 60×16 → wide)', async () => {
    const r = await sized(reviewWaitingForGo(), 120, 40);
    await waitFor(() => expectEssentials(r.frame()));
    const tall = plain(r.frame()).split('\n').length;
    expect(tall).toBeGreaterThan(30);
    r.stdout.resize(80, 24);
    await waitFor(() => expectFits(r.frame(), 80, 24));
    expectEssentials(r.frame());
    r.stdout.resize(60, 16);
    await waitFor(() => expectFits(r.frame(), 60, 16));
    expect(plain(r.frame())).toMatch(/REVIEW\s+iter 1\/5\s+MANUAL/);
    r.stdout.resize(120, 40);
    await waitFor(() => expect(plain(r.frame()).split('\n').length).toBe(tall));
  });
});

describe('NO_COLOR', () => {
  it('is honoured when set to anything but the empty string', () => {
    expect(colorsWanted({})).toBe(true);
    expect(colorsWanted({ NO_COLOR: '' })).toBe(true);
    expect(colorsWanted({ NO_COLOR: '1' })).toBe(false);
  });

  it('no colour codes on screen with NO_COLOR; colours without it', async () => {
    const level = chalk.level;
    chalk.level = 1;
    onTestFinished(() => {
      chalk.level = level;
    });
    const coloured = await renderApp({ phase: 'REVIEW', awaiting: { kind: 'go', action: { kind: 'review' } } });
    expect(colourCodes(coloured.frame()).length).toBeGreaterThan(0); // the check below can fail
    cleanup();
    vi.stubEnv('NO_COLOR', '1');
    const r = await renderApp({ phase: 'REVIEW', awaiting: { kind: 'go', action: { kind: 'review' } } });
    await r.press('?'); // a dialog frame, borders included
    await waitFor(() => expect(r.frame()).toContain('Show this help'));
    expect(colourCodes(r.frame())).toEqual([]);
    expect(plain(r.frame())).toContain('MANUAL');
  });
});

describe('attention: the person’s input is needed', () => {
  it('the App calls for attention once per new question, and for a held command', async () => {
    const onAttention = vi.fn();
    const r = await renderApp({ phase: 'REVIEW', inflight: { kind: 'review' } }, { onAttention });
    expect(onAttention).not.toHaveBeenCalled();
    r.engine.set({ inflight: null, awaiting: { kind: 'go', action: { kind: 'respond' } } });
    await waitFor(() => expect(onAttention).toHaveBeenCalledWith('waiting for your go (Enter)'));
    r.engine.set({ updatedAt: '2026-01-01T00:00:01Z' }); // same question, state published again
    await waitFor(() => expect(r.frame()).toContain('Next: planner'));
    expect(onAttention).toHaveBeenCalledTimes(1);
    r.engine.set({
      awaiting: null,
      inflight: { kind: 'execute_step', step: 1 },
      pendingCommand: {
        id: 'c1',
        role: 'planner',
        command: 'curl x',
        decision: 'confirm',
        rule: 'network',
        reason: 'network',
      },
    });
    await waitFor(() => expect(onAttention).toHaveBeenLastCalledWith('the planner wants to run a command'));
  });

  it('a bell everywhere; OSC 9 too on iTerm2, WezTerm, Windows Terminal, kitty, Ghostty', () => {
    expect(attentionSequence('waiting for your go', { TERM_PROGRAM: 'Apple_Terminal' })).toBe('\u0007');
    expect(attentionSequence('waiting for your go', {})).toBe('\u0007');
    for (const env of [
      { TERM_PROGRAM: 'iTerm.app' },
      { TERM_PROGRAM: 'WezTerm' },
      { WT_SESSION: 'abc' },
      { TERM: 'xterm-kitty' },
      { KITTY_WINDOW_ID: '1' },
      { TERM_PROGRAM: 'ghostty' },
    ]) {
      expect(supportsOsc9(env), JSON.stringify(env)).toBe(true);
      expect(attentionSequence('waiting for your go', env)).toBe(
        '\u0007\u001b]9;agent-collab: waiting for your go\u0007',
      );
    }
    expect(supportsOsc9({ TERM_PROGRAM: 'iTerm.app', TMUX: '/tmp/tmux-1/default,1,0' })).toBe(false);
    // A control character in the text cannot end the sequence early.
    expect(attentionSequence('a\u0007b\u001bc', { TERM_PROGRAM: 'WezTerm' })).toBe(
      '\u0007\u001b]9;agent-collab: a b c\u0007',
    );
  });
});
