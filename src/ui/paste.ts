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

export interface KeyEvent {
  input: string;
  key: Key;
  info: KeyInfo;
}

export interface PasteReader {
  /** The keys to hand over now: none while a paste is being read, several for a burst that held control keys. */
  read(raw: string, input: string, key: Key): KeyEvent[];
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
        return [];
      }
      if (pasted === null) return raw === END ? [] : burst(raw, input, key);
      // Ctrl+C alone ends a paste whose end mark never came (the keyboard must never stay swallowed).
      if (raw === END || raw === CTRL_C) {
        const text = pasted.join('');
        pasted = null;
        if (raw === CTRL_C) return [{ input, key, info: { raw, paste: false } }];
        return text ? [{ input: text, key: NO_KEY, info: { raw: text, paste: true } }] : [];
      }
      pasted.push(raw);
      return [];
    },
  };
}

/** Control keys other than line breaks and tabs: Ctrl+letters, Backspace (DEL). */
// eslint-disable-next-line no-control-regex
const CONTROL_KEY = /[\u0000-\u0008\u000b\u000c\u000e-\u001a\u007f]/;

/**
 * Ink splits what it reads only at ESC: keys that come faster than it reads (a key repeat, tmux send-keys, a busy
 * event loop) reach it as one text, `one \x0b` for "one " then Ctrl+K. Such a text is split back into its keys.
 * Its line breaks stay text (a fast burst holding newlines is a paste from a terminal without bracketed paste).
 */
function burst(raw: string, input: string, key: Key): KeyEvent[] {
  if (raw.length < 2 || raw.startsWith('\u001b') || !CONTROL_KEY.test(raw))
    return [{ input, key, info: { raw, paste: false } }];
  const out: KeyEvent[] = [];
  for (const part of raw.split(new RegExp(`(${CONTROL_KEY.source})`))) {
    if (!part) continue;
    if (!CONTROL_KEY.test(part)) out.push({ input: part, key: NO_KEY, info: { raw: part, paste: false } });
    else out.push({ ...controlKey(part), info: { raw: part, paste: false } });
  }
  return out;
}

/** A control character as Ink reports it when it comes alone. */
function controlKey(ch: string): { input: string; key: Key } {
  if (ch === '\u007f') return { input: '', key: { ...NO_KEY, delete: true } };
  if (ch === '\b') return { input: '', key: { ...NO_KEY, backspace: true } };
  return { input: String.fromCharCode(ch.charCodeAt(0) + 96), key: { ...NO_KEY, ctrl: true } };
}
