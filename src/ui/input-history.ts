// The text boxes' history in memory: what was sent, newest first, bounded; `save` (the disk, in the TUI) gets the
// whole list after each change. Entries are redacted before they are kept: a pasted secret is never recalled,
// shown or written in clear.
import type { InputHistory } from './ports.js';
import { remember } from './text-field-state.js';

export const INPUT_HISTORY_MAX = 200;
/** A longer text (a big paste) is sent, not kept: the history stays small on disk and quick to walk. */
export const INPUT_HISTORY_MAX_CHARS = 16_384;

export function inputHistory(
  initial: readonly string[],
  opts: { redact?: (text: string) => string; save?: (entries: readonly string[]) => void; max?: number } = {},
): InputHistory {
  const max = opts.max ?? INPUT_HISTORY_MAX;
  let entries: readonly string[] = initial.slice(0, max);
  return {
    entries: () => entries,
    add: (text) => {
      if (text.length > INPUT_HISTORY_MAX_CHARS) return;
      const next = remember(entries, opts.redact ? opts.redact(text) : text, max);
      if (next.length === entries.length && next.every((e, i) => e === entries[i])) return;
      entries = next;
      opts.save?.(entries);
    },
  };
}
