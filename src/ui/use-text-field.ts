import type { Key } from 'ink';
import { useRef } from 'react';
import { editText } from './text-input.js';

/**
 * A text field's key handler that edits the latest value even when keys arrive faster than React re-renders
 * (the value is mirrored in a ref, re-synced whenever the owner changes it, e.g. clears it after a submit).
 */
export interface TextField {
  /** Handles a key; false when the key is not for the text field. */
  onKey: (input: string, key: Key) => boolean;
  /** The latest value, including keys React has not rendered yet. */
  value: () => string;
}

export function useTextField(value: string, onChange: (v: string) => void, onSubmit: (v: string) => void): TextField {
  const current = useRef(value);
  const seen = useRef(value);
  if (seen.current !== value) {
    seen.current = value;
    current.current = value;
  }
  return {
    onKey: (input, key) => {
      const edit = editText(current.current, input, key);
      if (!edit) return false;
      if (edit.kind === 'change') {
        current.current = edit.value;
        onChange(edit.value);
      } else onSubmit(edit.value);
      return true;
    },
    value: () => current.current,
  };
}
