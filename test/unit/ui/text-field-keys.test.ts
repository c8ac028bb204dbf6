// Issue 20 (Goal input habit): which key does what in a text box (the key table in keymap.ts), how a paste arrives
// (bracketed paste, a fast burst), and the walk through earlier goals and messages that keeps the text being typed.
import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { editCommandFor } from '../../../src/ui/keymap.js';
import { inputHistory } from '../../../src/ui/input-history.js';
import { NO_KEY, pasteReader } from '../../../src/ui/paste.js';
import { emptyField, fieldKey, remember, type FieldState } from '../../../src/ui/text-field-state.js';

const k = (over: Partial<Key> = {}): Key => ({ ...NO_KEY, ...over });
const typed = { raw: '', paste: false };

describe('the text box’s keys', () => {
  it('each readline / Claude Code key names its command', () => {
    const cases: Array<[string, string, Partial<Key>, string]> = [
      ['Enter', '', { return: true }, 'submit'],
      ['Shift+Enter (kitty)', '', { return: true, shift: true }, 'newline'],
      ['Alt+Enter / Esc CR', '', { return: true, meta: true }, 'newline'],
      ['Ctrl+J', '\n', {}, 'newline'],
      ['←', '', { leftArrow: true }, 'left'],
      ['Ctrl+←', '', { leftArrow: true, ctrl: true }, 'word_left'],
      ['Alt+←', '', { leftArrow: true, meta: true }, 'word_left'],
      ['Alt+B', 'b', { meta: true }, 'word_left'],
      ['Alt+F', 'f', { meta: true }, 'word_right'],
      ['Ctrl+→', '', { rightArrow: true, ctrl: true }, 'word_right'],
      ['Home', '', { home: true }, 'line_start'],
      ['Ctrl+A', 'a', { ctrl: true }, 'line_start'],
      ['End', '', { end: true }, 'line_end'],
      ['Ctrl+E', 'e', { ctrl: true }, 'line_end'],
      ['Ctrl+W', 'w', { ctrl: true }, 'delete_word_before'],
      ['Ctrl+U', 'u', { ctrl: true }, 'kill_to_start'],
      ['Ctrl+K', 'k', { ctrl: true }, 'kill_to_end'],
      ['Ctrl+D', 'd', { ctrl: true }, 'delete_forward'],
      ['Backspace (DEL, which Ink calls delete)', '', { delete: true }, 'backspace'],
    ];
    for (const [name, input, key, command] of cases) expect(editCommandFor(input, k(key)), name).toBe(command);
  });

  it('Delete and Backspace are told apart by their bytes (Ink reports both as `delete`)', () => {
    expect(editCommandFor('', k({ delete: true }), '\u001b[3~')).toBe('delete_forward');
    expect(editCommandFor('', k({ delete: true }), '\u007f')).toBe('backspace');
    expect(editCommandFor('[27;2;13~', k(), '\u001b[27;2;13~')).toBe('newline'); // xterm modifyOtherKeys
  });

  it('letters are text, and an escape sequence Ink has no name for is neither text nor a command', () => {
    const s = emptyField;
    expect(fieldKey(s, 'q', k(), typed, [])).toMatchObject({ kind: 'change', state: { editor: { value: 'q' } } });
    expect(fieldKey(s, '[I', k(), { raw: '\u001b[I', paste: false }, [])).toBeNull(); // a focus report
    expect(fieldKey(s, '', k({ escape: true, meta: true }), { raw: '\u001b', paste: false }, [])).toBeNull();
    expect(fieldKey(s, 'g', k({ ctrl: true }), typed, [])).toBeNull(); // Ctrl+G: the keymap's
    expect(fieldKey(s, '', k({ pageUp: true }), typed, [])).toBeNull();
  });
});

describe('a pasted text', () => {
  it('inside bracketed-paste marks is handed over whole at the end mark, its CRs kept as new lines', () => {
    const reader = pasteReader();
    const out = [
      reader.read('\u001b[200~', '[200~', k()),
      reader.read('first line', 'first line', k()),
      reader.read('\r', '', k({ return: true })), // a read that ended on the CR: Ink calls it Enter
      reader.read('second line\rthird', 'second line\rthird', k()),
      reader.read('\u001b[201~', '[201~', k()),
    ];
    expect(out.slice(0, 4)).toEqual([[], [], [], []]);
    expect(out[4]).toEqual([
      {
        input: 'first line\rsecond line\rthird',
        key: NO_KEY,
        info: { raw: 'first line\rsecond line\rthird', paste: true },
      },
    ]);
    const pasted = out[4]![0]!;
    const field = fieldKey(emptyField, pasted.input, pasted.key, pasted.info, []);
    expect(field).toMatchObject({ kind: 'change', state: { editor: { value: 'first line\nsecond line\nthird' } } });
    // After it, keys are keys again.
    expect(reader.read('\r', '', k({ return: true }))).toEqual([
      { input: '', key: k({ return: true }), info: { raw: '\r', paste: false } },
    ]);
  });

  it('Ctrl+C still reaches the App in the middle of a paste whose end mark never comes', () => {
    const reader = pasteReader();
    reader.read('\u001b[200~', '[200~', k());
    reader.read('abc', 'abc', k());
    expect(reader.read('\u0003', 'c', k({ ctrl: true }))).toMatchObject([{ input: 'c', info: { paste: false } }]);
    expect(reader.read('x', 'x', k())).toMatchObject([{ input: 'x', info: { paste: false } }]);
  });

  it('a fast burst without marks (one read holding CRs) is text with new lines, not Enter', () => {
    expect(pasteReader().read('one\rtwo', 'one\rtwo', k())).toEqual([
      { input: 'one\rtwo', key: k(), info: { raw: 'one\rtwo', paste: false } },
    ]);
    const r = fieldKey(emptyField, 'one\rtwo', k(), { raw: 'one\rtwo', paste: false }, []);
    expect(r).toMatchObject({ kind: 'change', state: { editor: { value: 'one\ntwo', cursor: 7 } } });
  });

  it('control keys that came in one read with text (Ink splits only at ESC) are keys again, in order', () => {
    // "one " then Ctrl+K, then "two", Backspace, Ctrl+C: as tmux send-keys delivers them in one read.
    const keysOf = pasteReader().read('one \u000btwo\u007f\u0003', 'one \u000btwo\u007f\u0003', k());
    expect(keysOf.map((e) => [e.input, e.key.ctrl, e.key.delete])).toEqual([
      ['one ', false, false],
      ['k', true, false],
      ['two', false, false],
      ['', false, true],
      ['c', true, false],
    ]);
  });
});

describe('↑/↓ through earlier goals and messages', () => {
  const history = ['newest', 'older\nwith two lines', 'oldest'];
  const up = (s: FieldState): FieldState => {
    const r = fieldKey(s, '', k({ upArrow: true }), typed, history);
    if (r?.kind !== 'change') throw new Error('↑ did nothing');
    return r.state;
  };
  const down = (s: FieldState): FieldState => {
    const r = fieldKey(s, '', k({ downArrow: true }), typed, history);
    if (r?.kind !== 'change') throw new Error('↓ did nothing');
    return r.state;
  };
  const drafting: FieldState = { ...emptyField, editor: { value: 'half a thought', cursor: 4 } };

  it('↑ goes to the newest first, then older; ↓ comes back to the text being typed, cursor and all', () => {
    const s1 = up(drafting);
    expect(s1.editor.value).toBe('newest');
    const s2 = up(s1);
    expect(s2.editor).toEqual({ value: 'older\nwith two lines', cursor: 20 });
    // Inside a multi-line entry ↑ moves up a line first, then on to the older entry.
    const s3 = up(s2);
    expect(s3.editor.value).toBe('older\nwith two lines');
    expect(s3.editor.cursor).toBe(5);
    const s4 = up(s3);
    expect(s4.editor.value).toBe('oldest');
    expect(fieldKey(s4, '', k({ upArrow: true }), typed, history)).toBeNull(); // nothing older: the keymap's ↑
    const back = down(down(s4)); // the multi-line entry comes back with the cursor on its last line
    expect(back.editor.value).toBe('newest');
    expect(down(back).editor).toEqual(drafting.editor);
    expect(fieldKey(down(back), '', k({ downArrow: true }), typed, history)).toBeNull();
  });

  it('an entry recalled and edited becomes the text being typed (the walk ends)', () => {
    const r = fieldKey(up(drafting), '!', k(), typed, history);
    expect(r).toMatchObject({ kind: 'change', state: { editor: { value: 'newest!' }, recalled: null } });
  });

  it('Enter sends the recalled entry as it is shown', () => {
    expect(fieldKey(up(drafting), '', k({ return: true }), typed, history)).toEqual({
      kind: 'submit',
      value: 'newest',
    });
  });

  it('the history keeps the newest first, no repeats, bounded, redacted, and saves each change', () => {
    expect(remember(['b', 'a'], ' a ', 3)).toEqual(['a', 'b']);
    expect(remember(['c', 'b', 'a'], 'd', 3)).toEqual(['d', 'c', 'b']);
    const saved: Array<readonly string[]> = [];
    const h = inputHistory(['old'], { redact: (t) => t.replace(/sk-\w+/g, '[secret]'), save: (e) => saved.push(e) });
    h.add('use key sk-abc123');
    h.add('use key sk-abc123');
    expect(h.entries()).toEqual(['use key [secret]', 'old']);
    expect(saved).toEqual([['use key [secret]', 'old']]);
  });
});
