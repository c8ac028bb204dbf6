// The mouse's reports, told apart from keys. With `[tui] mouse = "on"` the terminal reports the mouse (xterm's
// modes 1000 + 1006: SGR reports `ESC [ < b ; x ; y M|m`); Ink hands each report to the key handler as if it were
// typed (its ESC cut off). They must never reach the goal box or a dialog as text: the App takes them out first.
// A terminal without SGR reports sends the legacy form `ESC [ M` and three raw bytes, which Ink splits in two.

export type MouseReport = { kind: 'wheel'; direction: 1 | -1 } | { kind: 'other' };

const SGR = /^\[<(\d+);\d+;\d+[Mm]$/;
const LEGACY_HEAD = '[M';

/** Button codes: bit 6 (64) is the wheel, the low two bits its direction (0 up, 1 down); 4/8/16 are modifiers. */
function fromButton(button: number): MouseReport {
  if ((button & 64) !== 0 && (button & 128) === 0 && (button & 3) < 2)
    return { kind: 'wheel', direction: (button & 3) === 0 ? -1 : 1 };
  return { kind: 'other' };
}

export interface MouseFilter {
  /** The mouse report this input is (or ends), or null for a key. */
  take(input: string): MouseReport | null;
}

export function mouseFilter(): MouseFilter {
  let legacyBytes = false;
  return {
    take(input) {
      if (legacyBytes) {
        legacyBytes = false;
        // The three bytes after `ESC [ M`: the button (+32), then the column and row (+32 each).
        if (input.length <= 3) return fromButton((input.codePointAt(0) ?? 32) - 32);
      }
      const sgr = SGR.exec(input);
      if (sgr) return fromButton(Number(sgr[1]));
      if (input === LEGACY_HEAD) {
        legacyBytes = true;
        return { kind: 'other' };
      }
      return null;
    },
  };
}
