// A text box's state as a pure function of its keys: the line editor (line-editor.ts) plus the walk through the
// earlier goals and messages with ↑/↓, which keeps the text being typed and gives it back at the end of the walk.
import type { Key } from 'ink';
import { editCommandFor } from './edit-keys.js';
import { editLine, editorAtEnd, emptyEditor, type Editor } from './line-editor.js';
import type { KeyInfo } from './paste.js';

export interface FieldState {
  editor: Editor;
  /** The history entry shown (0 = the newest), or null: the person's own text. */
  recalled: number | null;
  /** The person's own text, kept while an earlier entry is shown. */
  draft: Editor | null;
}

export const emptyField: FieldState = { editor: emptyEditor, recalled: null, draft: null };

export type FieldResult = { kind: 'change'; state: FieldState } | { kind: 'submit'; value: string } | null;

/**
 * What a key does to the text box: a new state, a submit (Enter), or null when the key is not the box's (Esc, Tab,
 * PgUp, Ctrl+G…, or ↑ with no earlier entry left): the App then gives it to the keymap. `history`: newest first.
 */
export function fieldKey(
  s: FieldState,
  input: string,
  key: Key,
  info: KeyInfo,
  history: readonly string[],
): FieldResult {
  // A paste is text whatever it holds: its line breaks are new lines, never Enter.
  if (info.paste) return edited(s, editLine(s.editor, { type: 'insert', text: input }));
  const command = editCommandFor(input, key, info.raw);
  if (command === 'submit') return { kind: 'submit', value: s.editor.value };
  if (command === 'up' || command === 'down') {
    const moved = editLine(s.editor, { type: 'command', command });
    if (moved) return { kind: 'change', state: { ...s, editor: moved } };
    const walked = command === 'up' ? historyBack(s, history) : historyForward(s, history);
    return walked ? { kind: 'change', state: walked } : null;
  }
  if (command) return edited(s, editLine(s.editor, { type: 'command', command }));
  if (!isText(input, key, info.raw)) return null;
  return edited(s, editLine(s.editor, { type: 'insert', text: input }));
}

/** An edit: an entry recalled and then changed is the person's text from then on (the walk ends there). */
function edited(s: FieldState, editor: Editor | null): FieldResult {
  if (!editor) return null;
  if (editor.value === s.editor.value) return { kind: 'change', state: { ...s, editor } };
  return { kind: 'change', state: { editor, recalled: null, draft: null } };
}

/** Text typed (or a fast burst of it): not a key with a modifier, not an escape sequence Ink did not name. */
function isText(input: string, key: Key, raw: string): boolean {
  if (!input || key.ctrl || key.meta || key.escape || key.tab || key.pageUp || key.pageDown) return false;
  return !raw.startsWith('\u001b');
}

function historyBack(s: FieldState, history: readonly string[]): FieldState | null {
  const next = s.recalled === null ? 0 : s.recalled + 1;
  const entry = history[next];
  if (entry === undefined) return null;
  return { editor: editorAtEnd(entry), recalled: next, draft: s.recalled === null ? s.editor : s.draft };
}

function historyForward(s: FieldState, history: readonly string[]): FieldState | null {
  if (s.recalled === null) return null;
  if (s.recalled === 0) return { editor: s.draft ?? emptyEditor, recalled: null, draft: null };
  const entry = history[s.recalled - 1] ?? '';
  return { editor: editorAtEnd(entry), recalled: s.recalled - 1, draft: s.draft };
}

/** Adds a sent text to a history (newest first, no repeat of the newest, at most `max`). */
export function remember(history: readonly string[], text: string, max: number): string[] {
  const t = text.trim();
  if (!t || history[0] === t) return [...history];
  return [t, ...history.filter((h) => h !== t)].slice(0, max);
}
