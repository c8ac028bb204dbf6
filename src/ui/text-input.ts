// A single-line text field's editing, as a pure function of a keypress (Ink has no text input component).
import type { Key } from 'ink';

export type TextEdit = { kind: 'change'; value: string } | { kind: 'submit'; value: string } | null;

/** What a keypress does to `value`: a new value, a submit, or null when the key is not for the text field. */
export function editText(value: string, input: string, key: Key): TextEdit {
  if (key.return) return { kind: 'submit', value };
  if (key.backspace || key.delete) return { kind: 'change', value: Array.from(value).slice(0, -1).join('') };
  if (key.ctrl && input === 'u') return { kind: 'change', value: '' };
  if (key.ctrl && input === 'w') return { kind: 'change', value: value.replace(/\S+\s*$/, '') };
  if (key.ctrl || key.meta || key.tab || key.escape || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow)
    return null;
  if (key.pageUp || key.pageDown || key.home || key.end) return null;
  // Pasted text may carry newlines: a single-line field keeps them as spaces.
  const text = Array.from(input.replace(/\r\n?|\n/g, ' '))
    .filter((ch) => ch >= ' ' && ch !== '\u007f')
    .join('');
  return text ? { kind: 'change', value: value + text } : null;
}
