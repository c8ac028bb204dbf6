// The text boxes' keys (the goal box, a message, an answer): a line editor as in a shell prompt.
import type { Key } from 'ink';
import { key, keyMatches, type KeySpec } from './key-spec.js';

/** What a key does in a text box (line-editor.ts carries it out). */
export type EditCommand =
  | 'submit'
  | 'newline'
  | 'left'
  | 'right'
  | 'word_left'
  | 'word_right'
  | 'line_start'
  | 'line_end'
  | 'up'
  | 'down'
  | 'backspace'
  | 'delete_forward'
  | 'delete_word_before'
  | 'kill_to_start'
  | 'kill_to_end';

/** The first binding a key matches wins: the ones with a modifier come before the plain key. */
export const EDIT_KEYMAP: ReadonlyArray<{ command: EditCommand; keys: KeySpec[] }> = [
  {
    command: 'newline',
    keys: [
      // Shift+Enter as a terminal reports it: the kitty protocol, xterm's modifyOtherKeys, or Esc+CR (iTerm2, VS Code).
      key('Shift+Enter', { special: 'return', shift: true }),
      // eslint-disable-next-line no-control-regex
      key('Shift+Enter', { raw: /^\u001b\[27;2;13~$/ }),
      key('Alt+Enter', { special: 'return', meta: true }),
      key('Ctrl+J', { input: '\n' }),
    ],
  },
  { command: 'submit', keys: [key('Enter', { special: 'return' })] },
  {
    command: 'word_left',
    keys: [
      key('Ctrl+←', { special: 'leftArrow', ctrl: true }),
      key('Alt+←', { special: 'leftArrow', meta: true }),
      key('Alt+B', { input: 'b', meta: true }),
    ],
  },
  {
    command: 'word_right',
    keys: [
      key('Ctrl+→', { special: 'rightArrow', ctrl: true }),
      key('Alt+→', { special: 'rightArrow', meta: true }),
      key('Alt+F', { input: 'f', meta: true }),
    ],
  },
  { command: 'left', keys: [key('←', { special: 'leftArrow' })] },
  { command: 'right', keys: [key('→', { special: 'rightArrow' })] },
  { command: 'line_start', keys: [key('Home', { special: 'home' }), key('Ctrl+A', { input: 'a', ctrl: true })] },
  { command: 'line_end', keys: [key('End', { special: 'end' }), key('Ctrl+E', { input: 'e', ctrl: true })] },
  { command: 'up', keys: [key('↑', { special: 'upArrow' })] },
  { command: 'down', keys: [key('↓', { special: 'downArrow' })] },
  {
    command: 'delete_word_before',
    keys: [
      key('Ctrl+W', { input: 'w', ctrl: true }),
      key('Alt+Backspace', { special: 'delete', meta: true }),
      key('Alt+Backspace', { special: 'backspace', meta: true }),
    ],
  },
  { command: 'kill_to_start', keys: [key('Ctrl+U', { input: 'u', ctrl: true })] },
  { command: 'kill_to_end', keys: [key('Ctrl+K', { input: 'k', ctrl: true })] },
  {
    // Ink reports Backspace (DEL, 0x7f) as `delete` too: the Delete key is told apart by its bytes.
    command: 'delete_forward',
    // eslint-disable-next-line no-control-regex
    keys: [key('Delete', { raw: /^\u001b\[3(;\d+)?~$/ }), key('Ctrl+D', { input: 'd', ctrl: true })],
  },
  { command: 'backspace', keys: [key('Backspace', { special: 'backspace' }), key('Backspace', { special: 'delete' })] },
];

/** The text-box command a key means, or null (then it is text to insert, or not the text box's key). */
export function editCommandFor(input: string, k: Key, raw = ''): EditCommand | null {
  for (const b of EDIT_KEYMAP) if (b.keys.some((spec) => keyMatches(spec, input, k, raw))) return b.command;
  return null;
}

/** The text boxes' keys in the help (each group's keys fit the help's keys column). */
export const EDIT_HELP: ReadonlyArray<{ keys: string; description: string }> = [
  { keys: '← → Home End Ctrl+A/E', description: 'In a text box: move the cursor; to the start / end of the line' },
  { keys: 'Ctrl+← → Alt+← → B F', description: 'In a text box: move by a word' },
  { keys: 'Backspace Delete', description: 'In a text box: delete before / at the cursor (Ctrl+D too)' },
  { keys: 'Ctrl+W Ctrl+U Ctrl+K', description: 'In a text box: delete the word before, to the line start, to the end' },
  {
    keys: 'Shift+Enter Ctrl+J',
    description: 'In a text box: a new line (Enter sends; a pasted text keeps its lines, it is not sent)',
  },
  {
    keys: '↑ ↓ (in a text box)',
    description: 'Move between lines; from the first / last line: earlier goals and messages, kept across runs',
  },
];
