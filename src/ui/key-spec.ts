// How a key is written down (KeySpec) and whether a keypress is that key: the keymap's and the text boxes' keys
// are both lists of these.
import type { Key } from 'ink';

type Special =
  | 'return'
  | 'tab'
  | 'escape'
  | 'upArrow'
  | 'downArrow'
  | 'leftArrow'
  | 'rightArrow'
  | 'pageUp'
  | 'pageDown'
  | 'home'
  | 'end'
  | 'backspace'
  | 'delete';

/** One key: a character (letters match either case) or a special key, with modifiers. */
export interface KeySpec {
  input?: string;
  special?: Special;
  ctrl?: boolean;
  shift?: boolean;
  /** Alt (Option, Esc-prefixed): checked only when set, true or false. */
  meta?: boolean;
  /** The bytes the terminal sent, for keys Ink does not tell apart (Delete from Backspace, Shift+Enter). */
  raw?: RegExp;
  /** A letter that is text in the goal box: it means the command only outside it (vim / less keys). */
  outsideInput?: boolean;
  /** The letter in this case only (g is not G). */
  exact?: boolean;
  /** How the key is written in help and hints. */
  label: string;
}

export const key = (label: string, spec: Omit<KeySpec, 'label'>): KeySpec => ({ label, ...spec });

export function keyMatches(spec: KeySpec, input: string, k: Key, raw = ''): boolean {
  if (spec.raw) return spec.raw.test(raw);
  if (Boolean(spec.ctrl) !== k.ctrl) return false;
  if (spec.meta !== undefined && spec.meta !== k.meta) return false;
  if (spec.special) {
    if (!k[spec.special]) return false;
    return spec.shift === undefined || spec.shift === k.shift;
  }
  if (spec.input === undefined) return false;
  return /^[a-z]$/.test(spec.input) && !spec.exact ? input.toLowerCase() === spec.input : input === spec.input;
}
