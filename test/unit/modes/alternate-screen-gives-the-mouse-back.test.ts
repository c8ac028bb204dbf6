// `[tui] mouse`: the mode asked of the terminal is taken back before the normal screen comes back, while the
// person's editor has the terminal, and never asked of a stream that is not a terminal.
import { describe, expect, it } from 'vitest';
import { alternateScreen } from '../../../src/modes/alternate-screen.js';

const ENTER = '\u001b[?1049h';
const LEAVE = '\u001b[?1049l';
const MOUSE_ON = '\u001b[?1000h\u001b[?1006h';
const MOUSE_OFF = '\u001b[?1006l\u001b[?1000l';
// Bracketed paste goes on and off with the alternate screen (and on again after the editor).
const PASTE_ON = '\u001b[?2004h';
const PASTE_OFF = '\u001b[?2004l';

function terminal(isTTY = true): NodeJS.WriteStream & { writes: string[] } {
  const writes: string[] = [];
  const write = (s: string): boolean => {
    writes.push(s);
    return true;
  };
  return { isTTY, writes, write } as unknown as NodeJS.WriteStream & { writes: string[] };
}

describe('the alternate screen and the mouse', () => {
  it('asks once, gives the mode back while the editor runs and asks again after, gives it back before leaving', () => {
    const out = terminal();
    const screen = alternateScreen(out);
    screen.mouse('on');
    screen.mouse('on'); // a new run's App in the same TUI
    screen.lend();
    screen.reenter();
    screen.afterwards('agent-collab: bye');
    screen.leave();
    screen.leave();
    expect(out.writes).toEqual([
      ENTER,
      PASTE_ON,
      MOUSE_ON,
      MOUSE_OFF,
      ENTER,
      PASTE_ON,
      MOUSE_ON,
      MOUSE_OFF,
      PASTE_OFF,
      LEAVE,
      'agent-collab: bye\n',
    ]);
  });

  it('scroll_keys asks for alternate scroll and gives it back; off asks nothing', () => {
    const keys = terminal();
    const a = alternateScreen(keys);
    a.mouse('scroll_keys');
    a.leave();
    expect(keys.writes).toEqual([ENTER, PASTE_ON, '\u001b[?1007h', '\u001b[?1007l', PASTE_OFF, LEAVE]);
    const off = terminal();
    const b = alternateScreen(off);
    b.mouse('off');
    b.lend();
    b.reenter();
    b.leave();
    expect(off.writes).toEqual([ENTER, PASTE_ON, ENTER, PASTE_ON, PASTE_OFF, LEAVE]);
  });

  it('asks nothing of a stream that is not a terminal', () => {
    const out = terminal(false);
    const screen = alternateScreen(out);
    screen.mouse('on');
    screen.leave();
    expect(out.writes).toEqual([]);
  });
});
