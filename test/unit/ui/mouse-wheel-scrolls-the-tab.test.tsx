// Issue 20, "Scrolling": the mouse wheel scrolls the tab shown. With `[tui] mouse = "on"` the terminal reports the
// mouse (SGR reports, or the legacy `ESC [ M` + 3 bytes); Ink hands the reports over as if typed, so the App must take
// them out before the goal box, a dialog or the keymap sees them.
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { mouseFilter } from '../../../src/ui/mouse.js';
import { KEY, renderApp, sleep, waitFor, type Rendered } from './ui-helpers.js';

afterEach(() => cleanup());

const WHEEL_UP = '\u001b[<64;10;5M';
const WHEEL_DOWN = '\u001b[<65;10;5M';
const CLICK = '\u001b[<0;12;7M';
const RELEASE = '\u001b[<0;12;7m';
/** A terminal without SGR reports: ESC [ M, then the button + 32 (wheel up: 64 + 32 = "`"), column and row + 32. */
const LEGACY_WHEEL_UP = '\u001b[M`!!';

function chatter(r: Rendered, n = 60): void {
  const text = Array.from({ length: n }, (_, i) => `line ${i + 1} of the answer`).join('\n');
  r.engine.emit({ type: 'agent_event', role: 'planner', event: { type: 'text', text } });
}

/** The tab bar's "↑12 ↓3": lines above and below the window. */
const below = (frame: string): number => Number(/↓(\d+)/.exec(frame.split('\n')[0] ?? '')?.[1] ?? 0);

describe('the mouse wheel', () => {
  it('scrolls the conversation three lines a notch, back to following the stream at the end', async () => {
    const r = await renderApp({ phase: 'REVIEW', iteration: 1 });
    chatter(r);
    await waitFor(() => expect(r.frame()).toContain('line 60 of the answer'));
    expect(below(r.frame())).toBe(0);
    await r.press(WHEEL_UP);
    await waitFor(() => expect(below(r.frame())).toBe(3));
    await r.press(WHEEL_UP, WHEEL_UP);
    await waitFor(() => expect(below(r.frame())).toBe(9));
    await r.press(WHEEL_DOWN, WHEEL_DOWN, WHEEL_DOWN);
    await waitFor(() => expect(below(r.frame())).toBe(0));
    chatter(r, 5); // following again: new lines stay in sight
    await waitFor(() => expect(r.frame()).toContain('line 5 of the answer\n'));
    expect(below(r.frame())).toBe(0);
    expect(r.engine.sent).toEqual([]);
  });

  it('never types into the goal box: reports of the wheel, clicks and the legacy form are taken out', async () => {
    const r = await renderApp({ phase: 'REFINE_GOAL', awaiting: { kind: 'goal' } });
    chatter(r);
    await waitFor(() => expect(r.frame()).toContain('line 60 of the answer'));
    await r.type('ab');
    await r.press(WHEEL_UP, CLICK, RELEASE, LEGACY_WHEEL_UP);
    await r.type('c');
    await waitFor(() => expect(r.frame()).toContain('goal › abc'));
    expect(below(r.frame())).toBe(6); // the SGR notch and the legacy one
    expect(r.frame()).not.toMatch(/\[<|`!!/);
    await r.press(KEY.enter);
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'user_message', text: 'abc' }]));
  });

  it('scrolls the tab behind an open dialog and decides nothing', async () => {
    const r = await renderApp({
      phase: 'RESPOND',
      iteration: 1,
      awaiting: {
        kind: 'external_change',
        file: 'plan',
        role: 'planner',
        action: { kind: 'respond' },
        text: 'the planner’s version',
      },
    });
    chatter(r);
    await waitFor(() => expect(r.frame()).toContain('plan.md changed outside agent-collab'));
    await waitFor(() => expect(r.frame()).toContain('line 60 of the answer'));
    await r.press(WHEEL_UP, CLICK, RELEASE);
    await waitFor(() => expect(below(r.frame())).toBe(3));
    await sleep(30);
    expect(r.engine.sent).toEqual([]);
    expect(r.frame()).toContain('plan.md changed outside agent-collab');
  });
});

describe('telling mouse reports from keys', () => {
  it('reads the wheel from SGR and legacy reports, with modifiers; other buttons are reports too; keys are not', () => {
    const f = mouseFilter();
    expect(f.take('[<64;1;1M')).toEqual({ kind: 'wheel', direction: -1 });
    expect(f.take('[<65;80;24M')).toEqual({ kind: 'wheel', direction: 1 });
    expect(f.take('[<81;3;3M')).toEqual({ kind: 'wheel', direction: 1 }); // Ctrl + wheel down
    expect(f.take('[<0;3;3M')).toEqual({ kind: 'other' });
    expect(f.take('[<2;3;3m')).toEqual({ kind: 'other' });
    expect(f.take('[M')).toEqual({ kind: 'other' });
    expect(f.take('a!!')).toEqual({ kind: 'wheel', direction: 1 }); // 97 - 32 = 65
    for (const key of ['a', '[A', '[5~', '/', 'M', '`!!', '[<64;1;1']) expect(f.take(key), key).toBeNull();
  });
});
