// The text boxes' editor as a pure state and reducer: a value, a cursor in it, and what each key does — as in a
// shell prompt (readline's keys) and in Claude Code / Codex (Shift+Enter or Ctrl+J for a new line, ↑/↓ history).
import type { EditCommand } from './edit-keys.js';

export interface Editor {
  value: string;
  /** An offset into `value` (UTF-16 units), always between two code points. */
  cursor: number;
}

export type EditAction =
  { type: 'command'; command: Exclude<EditCommand, 'submit'> } | { type: 'insert'; text: string };

export const emptyEditor: Editor = { value: '', cursor: 0 };

/** `value` with the cursor at its end (a value set from outside: a recalled entry, a message put back). */
export function editorAtEnd(value: string): Editor {
  return { value, cursor: value.length };
}

/**
 * Typed or pasted text as the box keeps it: line ends become `\n` (a paste's newlines are text, never Enter),
 * control characters are dropped (they would move the terminal's cursor or recolour it), tabs are kept.
 */
export function cleanText(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '')
  );
}

/** The new editor, or null when the key has nothing to do here (↑ on the first line: the history's turn). */
export function editLine(e: Editor, action: EditAction): Editor | null {
  const { value, cursor } = e;
  if (action.type === 'insert') {
    const text = cleanText(action.text);
    if (!text) return null;
    return { value: value.slice(0, cursor) + text + value.slice(cursor), cursor: cursor + text.length };
  }
  const start = lineStart(value, cursor);
  const end = lineEnd(value, cursor);
  switch (action.command) {
    case 'newline':
      return editLine(e, { type: 'insert', text: '\n' });
    case 'left':
      return moveTo(e, prevPoint(value, cursor));
    case 'right':
      return moveTo(e, nextPoint(value, cursor));
    case 'word_left':
      return moveTo(e, wordStartBefore(value, cursor));
    case 'word_right':
      return moveTo(e, wordEndAfter(value, cursor));
    case 'line_start':
      return moveTo(e, start);
    case 'line_end':
      return moveTo(e, end);
    case 'up':
      return start === 0 ? null : moveTo(e, atColumn(value, lineStart(value, start - 1), cursorPosition(e).column));
    case 'down':
      return end === value.length ? null : moveTo(e, atColumn(value, end + 1, cursorPosition(e).column));
    case 'backspace':
      return cut(e, prevPoint(value, cursor), cursor);
    case 'delete_forward':
      return cut(e, cursor, nextPoint(value, cursor));
    case 'delete_word_before':
      return cut(e, spaceWordStartBefore(value, cursor), cursor);
    // At the line's start (end), Ctrl+U (Ctrl+K) takes the line break: the lines join, as in Claude Code.
    case 'kill_to_start':
      return cut(e, cursor === start ? prevPoint(value, cursor) : start, cursor);
    case 'kill_to_end':
      return cut(e, cursor, cursor === end ? nextPoint(value, cursor) : end);
  }
}

/** Where the cursor is: its line (from 0) and its column in code points. */
export function cursorPosition(e: Editor): { line: number; column: number } {
  const before = e.value.slice(0, e.cursor);
  const start = lineStart(e.value, e.cursor);
  return { line: before.split('\n').length - 1, column: Array.from(e.value.slice(start, e.cursor)).length };
}

function moveTo(e: Editor, cursor: number): Editor {
  return cursor === e.cursor ? e : { value: e.value, cursor };
}

function cut(e: Editor, from: number, to: number): Editor {
  if (from >= to) return e;
  return { value: e.value.slice(0, from) + e.value.slice(to), cursor: from };
}

function lineStart(value: string, at: number): number {
  return value.lastIndexOf('\n', at - 1) + 1;
}

function lineEnd(value: string, at: number): number {
  const i = value.indexOf('\n', at);
  return i === -1 ? value.length : i;
}

/** The offset in the line from `start` at `column` code points, or the line's end when it is shorter. */
function atColumn(value: string, start: number, column: number): number {
  const end = lineEnd(value, start);
  let at = start;
  for (let n = 0; n < column && at < end; n++) at = nextPoint(value, at);
  return at;
}

function prevPoint(value: string, at: number): number {
  if (at <= 0) return 0;
  const low = value.charCodeAt(at - 1);
  const high = at >= 2 ? value.charCodeAt(at - 2) : 0;
  return low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? at - 2 : at - 1;
}

function nextPoint(value: string, at: number): number {
  if (at >= value.length) return value.length;
  const cp = value.codePointAt(at) ?? 0;
  return at + (cp > 0xffff ? 2 : 1);
}

const WORD = /[\p{L}\p{N}_]/u;
const isWord = (value: string, at: number): boolean => WORD.test(String.fromCodePoint(value.codePointAt(at) ?? 32));

/** Alt+B / Ctrl+←: back over non-word characters, then to the start of the word (readline's backward-word). */
function wordStartBefore(value: string, at: number): number {
  let i = at;
  while (i > 0 && !isWord(value, prevPoint(value, i))) i = prevPoint(value, i);
  while (i > 0 && isWord(value, prevPoint(value, i))) i = prevPoint(value, i);
  return i;
}

/** Alt+F / Ctrl+→: over non-word characters, then to the end of the word (readline's forward-word). */
function wordEndAfter(value: string, at: number): number {
  let i = at;
  while (i < value.length && !isWord(value, i)) i = nextPoint(value, i);
  while (i < value.length && isWord(value, i)) i = nextPoint(value, i);
  return i;
}

/** Ctrl+W: the word before the cursor up to whitespace, and the spaces after it (the shell's unix-word-rubout). */
function spaceWordStartBefore(value: string, at: number): number {
  let i = at;
  while (i > 0 && /\s/.test(value[i - 1] ?? '')) i = prevPoint(value, i);
  while (i > 0 && !/\s/.test(value[i - 1] ?? '')) i = prevPoint(value, i);
  return i;
}
