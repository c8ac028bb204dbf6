// Bracketed paste: with `ESC[?2004h` on (alternate-screen.ts), the terminal wraps a pasted text in `ESC[200~` …
// `ESC[201~`. Ink 6.8 does not know these marks: it reports them as the text `[200~` / `[201~` and what lies
// between as keys (a lone CR of it as Enter). This reader holds back everything between the marks and hands the
// whole text over at the end mark, as one paste, so its line breaks never send it.
import type { Key } from 'ink';

/** How a key arrived: its bytes, and whether it is a whole pasted text. */
export interface KeyInfo {
  raw: string;
  paste: boolean;
}

const START = '\u001b[200~';
const END = '\u001b[201~';
const CTRL_C = '\u0003';

export interface PasteReader {
  /** The key to hand over now, or null while a paste is being read. */
  read(raw: string, input: string, key: Key): { input: string; key: Key; info: KeyInfo } | null;
}

export const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

export function pasteReader(): PasteReader {
  let pasted: string[] | null = null;
  return {
    read(raw, input, key) {
      if (raw === START) {
        pasted = [];
        return null;
      }
      if (pasted === null) return raw === END ? null : { input, key, info: { raw, paste: false } };
      // Ctrl+C alone ends a paste whose end mark never came (the keyboard must never stay swallowed).
      if (raw === END || raw === CTRL_C) {
        const text = pasted.join('');
        pasted = null;
        if (raw === CTRL_C) return { input, key, info: { raw, paste: false } };
        return text ? { input: text, key: NO_KEY, info: { raw: text, paste: true } } : null;
      }
      pasted.push(raw);
      return null;
    },
  };
}
