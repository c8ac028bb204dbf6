// Issue 20 (Goal input habit): the text boxes edit like a shell prompt. The editor is a pure reducer: each key's
// effect on the value and the cursor is checked here, word boundaries and multi-line moves included.
import { describe, expect, it } from 'vitest';
import type { EditCommand } from '../../../src/ui/keymap.js';
import { cleanText, cursorPosition, editLine, type Editor } from '../../../src/ui/line-editor.js';

/** An editor from a string with `|` where the cursor is. */
const at = (marked: string): Editor => ({ value: marked.replace('|', ''), cursor: marked.indexOf('|') });
const marked = (e: Editor | null): string | null =>
  e ? `${e.value.slice(0, e.cursor)}|${e.value.slice(e.cursor)}` : null;
const press = (s: string, command: Exclude<EditCommand, 'submit'>): string | null =>
  marked(editLine(at(s), { type: 'command', command }));
const type = (s: string, text: string): string | null => marked(editLine(at(s), { type: 'insert', text }));

describe('moving the cursor', () => {
  it('← and → move one character, and stop at the ends', () => {
    expect(press('ab|c', 'left')).toBe('a|bc');
    expect(press('ab|c', 'right')).toBe('abc|');
    expect(press('|abc', 'left')).toBe('|abc');
    expect(press('abc|', 'right')).toBe('abc|');
  });

  it('a character outside the BMP (an emoji) is one step, never split in halves', () => {
    expect(press('a😀|b', 'left')).toBe('a|😀b');
    expect(press('a|😀b', 'right')).toBe('a😀|b');
    expect(press('a😀|b', 'backspace')).toBe('a|b');
    expect(press('a|😀b', 'delete_forward')).toBe('a|b');
  });

  it('Home/End (Ctrl+A/E) go to the start and end of the cursor’s line', () => {
    expect(press('one\ntw|o\nthree', 'line_start')).toBe('one\n|two\nthree');
    expect(press('one\ntw|o\nthree', 'line_end')).toBe('one\ntwo|\nthree');
    expect(press('ab|c', 'line_start')).toBe('|abc');
  });

  it('word jumps go to the start of the word before and the end of the word after, over punctuation', () => {
    expect(press('fix the --verbose| flag', 'word_left')).toBe('fix the --|verbose flag');
    expect(press('fix the --|verbose flag', 'word_left')).toBe('fix |the --verbose flag');
    expect(press('fix |the --verbose flag', 'word_right')).toBe('fix the| --verbose flag');
    expect(press('fix the| --verbose flag', 'word_right')).toBe('fix the --verbose| flag');
    expect(press('|  ', 'word_right')).toBe('  |');
    expect(press('  |', 'word_left')).toBe('|  ');
    expect(press('naïve_name2 x|', 'word_left')).toBe('naïve_name2 |x');
    expect(press('naïve_name2| x', 'word_left')).toBe('|naïve_name2 x');
  });

  it('↑/↓ move between lines at the same column (or the shorter line’s end); nothing to do on the first/last line', () => {
    expect(press('abcdef\nxy|z', 'up')).toBe('ab|cdef\nxyz');
    expect(press('abcdef|\nxyz', 'down')).toBe('abcdef\nxyz|');
    expect(press('a\nbb|\nc', 'down')).toBe('a\nbb\nc|');
    expect(press('a\nb|b\nc', 'up')).toBe('a|\nbb\nc');
    expect(press('ab|c\nd', 'up')).toBeNull();
    expect(press('abc\nd|', 'down')).toBeNull();
    expect(press('one| line', 'up')).toBeNull();
  });

  it('the cursor’s line and column count code points', () => {
    expect(cursorPosition(at('ab\n😀x|y'))).toEqual({ line: 1, column: 2 });
  });
});

describe('editing at the cursor', () => {
  it('typing inserts at the cursor, not at the end', () => {
    expect(type('add a flag|', 's')).toBe('add a flags|');
    expect(type('add |flag', 'a --verbose ')).toBe('add a --verbose |flag');
  });

  it('Backspace deletes before the cursor, Delete (Ctrl+D) at it', () => {
    expect(press('ab|cd', 'backspace')).toBe('a|cd');
    expect(press('ab|cd', 'delete_forward')).toBe('ab|d');
    expect(press('|ab', 'backspace')).toBe('|ab');
    expect(press('ab|', 'delete_forward')).toBe('ab|');
  });

  it('Ctrl+W deletes the word before the cursor up to whitespace, and the spaces after it', () => {
    expect(press('run npm test --watch|', 'delete_word_before')).toBe('run npm test |');
    expect(press('run npm test  |', 'delete_word_before')).toBe('run npm |');
    expect(press('run npm| test', 'delete_word_before')).toBe('run | test');
    expect(press('|run', 'delete_word_before')).toBe('|run');
  });

  it('Ctrl+U deletes to the line’s start, Ctrl+K to its end; at the edge they join the lines', () => {
    expect(press('one\ntw|o', 'kill_to_start')).toBe('one\n|o');
    expect(press('one\ntw|o', 'kill_to_end')).toBe('one\ntw|');
    expect(press('one\n|two', 'kill_to_start')).toBe('one|two');
    expect(press('one|\ntwo', 'kill_to_end')).toBe('one|two');
  });

  it('a new line is inserted at the cursor', () => {
    expect(press('first|second', 'newline')).toBe('first\n|second');
  });
});

describe('pasted text', () => {
  it('keeps its lines (CRLF and CR become LF) and drops control characters, tabs kept', () => {
    expect(type('goal: |', 'line one\r\nline two\rline three\n')).toBe('goal: line one\nline two\nline three\n|');
    expect(cleanText('a\u001b[31mred\u0007\tb\u007f')).toBe('a[31mred\tb');
  });

  it('nothing left to insert is no change', () => {
    expect(type('abc|', '\u001b')).toBeNull();
  });
});
