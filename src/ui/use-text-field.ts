import type { Key } from 'ink';
import { createContext, useContext, useRef, useState } from 'react';
import { editorAtEnd, type Editor } from './line-editor.js';
import type { KeyInfo } from './paste.js';
import type { InputHistory } from './ports.js';
import { emptyField, fieldKey, type FieldState } from './text-field-state.js';

/**
 * A text box's key handler that edits the latest text even when keys arrive faster than React re-renders (the
 * state is mirrored in a ref, re-synced whenever the owner changes the value, e.g. clears it after a submit).
 */
export interface TextField {
  /** Handles a key; false when the key is not for the text box (the keymap may have it). */
  onKey: (input: string, key: Key, info?: KeyInfo) => boolean;
  /** The latest value, including keys React has not rendered yet. */
  value: () => string;
  /** The text and its cursor, to draw. */
  editor: Editor;
}

const NO_HISTORY: InputHistory = { entries: () => [], add: () => undefined };

/** The history every text box of the App shares (the goal box, a message after an interrupt, an answer). */
export const InputHistoryContext = createContext<InputHistory | null>(null);

/** `history` (else the App's, from its context): the entries ↑/↓ go through; what is sent is added to it. */
export function useTextField(
  value: string,
  onChange: (v: string) => void,
  onSubmit: (v: string) => void,
  history?: InputHistory,
): TextField {
  const shared = useContext(InputHistoryContext);
  const entries = history ?? shared ?? NO_HISTORY;
  const current = useRef<FieldState>({ ...emptyField, editor: editorAtEnd(value) });
  const seen = useRef(value);
  const [, rerender] = useState(0);
  if (seen.current !== value) {
    // The owner set the value (cleared after a submit, a queued message put back): the cursor goes to its end.
    seen.current = value;
    if (current.current.editor.value !== value) current.current = { ...emptyField, editor: editorAtEnd(value) };
  }
  return {
    onKey: (input, key, info = { raw: '', paste: false }) => {
      const result = fieldKey(current.current, input, key, info, entries.entries());
      if (!result) return false;
      if (result.kind === 'submit') {
        if (result.value.trim()) entries.add(result.value);
        onSubmit(result.value);
        return true;
      }
      const before = current.current.editor.value;
      current.current = result.state;
      seen.current = result.state.editor.value;
      if (result.state.editor.value !== before) onChange(result.state.editor.value);
      rerender((n) => n + 1);
      return true;
    },
    value: () => current.current.editor.value,
    editor: current.current.editor,
  };
}
