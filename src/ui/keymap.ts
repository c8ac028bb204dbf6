// The TUI's keys as named commands: the help overlay, the status-bar hints, the input router and the tests all
// read them here. The table itself is key-bindings.ts; the text boxes' keys are edit-keys.ts.
import type { Key } from 'ink';
import { EDIT_HELP } from './edit-keys.js';
import { KEYMAP, SEARCH_COMMANDS, type Binding, type CommandName, type KeyContext } from './key-bindings.js';
import { keyMatches } from './key-spec.js';

export {
  isSearchCommand,
  isViewCommand,
  KEYMAP,
  SCROLL_COMMANDS,
  TAB_IDS,
  type CommandName,
  type KeyContext,
  type ScrollCommand,
  type TabId,
} from './key-bindings.js';
// The text boxes' keys are the keymap's too (the help lists them); line-editor.ts and its tests read them.
export { editCommandFor, type EditCommand } from './edit-keys.js';

export function bindingOf(command: CommandName): Binding {
  const b = KEYMAP.find((x) => x.command === command);
  if (!b) throw new Error(`no binding for ${command}`);
  return b;
}

/** The command a keypress means now, or null. */
export function commandFor(input: string, k: Key, ctx: KeyContext): CommandName | null {
  for (const b of KEYMAP) {
    const pressed = b.keys.some((spec) => keyMatches(spec, input, k) && !(spec.outsideInput && ctx.typing));
    if (pressed && b.when(ctx)) return b.command;
  }
  return null;
}

export interface Hint {
  /** null: a dialog's key (a choice of the decisions table, not a keymap command). */
  command: CommandName | null;
  key: string;
  text: string;
}

/** The keys worth showing in the status bar now, in keymap order. */
export function hintsFor(ctx: KeyContext): Hint[] {
  const out: Hint[] = [];
  for (const b of KEYMAP) {
    if (!b.hint || !b.when(ctx)) continue;
    const text = typeof b.hint === 'function' ? b.hint(ctx) : b.hint;
    if (text) out.push({ command: b.command, key: b.keys.map((k) => k.label).join('/'), text });
  }
  return out;
}

export interface HelpRow {
  keys: string;
  description: string;
  commands: CommandName[];
}

const GROUPS: ReadonlyArray<{ keys: string; description: string; commands: CommandName[] }> = [
  {
    keys: '1-7',
    description: 'Show a tab (Log and Status open on demand; press again to close)',
    commands: ['tab_1', 'tab_2', 'tab_3', 'tab_4', 'tab_5', 'tab_6', 'tab_7'],
  },
  {
    keys: '[ ]',
    description: 'Diff tab: the previous / next step’s patch (the last is the code review’s diff)',
    commands: ['diff_prev', 'diff_next'],
  },
  {
    keys: '↑ ↓ PgUp PgDn Home End',
    description: 'Scroll; End follows the stream; the wheel too ([tui] mouse); Log tab: move the selection',
    commands: ['scroll_up', 'scroll_down', 'page_up', 'page_down', 'scroll_top', 'scroll_bottom'],
  },
  {
    keys: 'k j Ctrl+U Ctrl+D g G',
    description: 'The same as in less and vim (outside the goal box): a line, half a page, the top, the end',
    commands: ['half_page_up', 'half_page_down'],
  },
  {
    keys: '/ n N Esc',
    description:
      'Search the tab (Enter; a capital makes it case-sensitive), next / previous match (it wraps), clear the search',
    commands: [...SEARCH_COMMANDS],
  },
];

/** The keymap as help lines: one per command, the tab digits and the scroll keys grouped. */
export function helpRows(): HelpRow[] {
  const rows: HelpRow[] = [];
  const seen = new Set<CommandName>();
  for (const b of KEYMAP) {
    if (seen.has(b.command)) continue;
    const group = GROUPS.find((g) => g.commands.includes(b.command));
    if (group) {
      group.commands.forEach((c) => seen.add(c));
      rows.push({ keys: group.keys, description: group.description, commands: group.commands });
    } else {
      seen.add(b.command);
      rows.push({ keys: b.keys.map((k) => k.label).join('/'), description: b.description, commands: [b.command] });
    }
  }
  // The text boxes' keys apply whenever one has the keyboard: listed last, with no command of their own.
  return [...rows, ...EDIT_HELP.map((r) => ({ ...r, commands: [] }))];
}
