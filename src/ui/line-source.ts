// The screen lines of a tab without laying all of them out: how many there are, and the lines of one window.
// A long conversation is counted every frame (cheap: a short one-line entry is one multiplication) but only the
// entries inside the window are laid out, so a frame costs what fits on screen, however fast the agent streams.
import { entryLines, MAX_DETAIL_LINES, wrapText, type Line } from './lines.js';
import type { ConversationEntry } from './view-model.js';

/** Lines to scroll through: an array is one, the conversation is a lazy one. */
export interface LineSource {
  readonly length: number;
  slice(start: number, end: number): Line[];
  /** The same lines as `slice`, for a one-off read (a search): a lazy source then keeps none of them laid out. */
  peek?(start: number, end: number): Line[];
}

/** Lines for a one-off read of any source. */
export function peekLines(source: LineSource, start: number, end: number): Line[] {
  return source.peek ? source.peek(start, end) : source.slice(start, end);
}

/** Rows `text` takes when wrapped to `width` (wrapText's count, without making the rows when it surely fits). */
function rows(text: string, width: number): number {
  const w = Math.max(1, width);
  // A character is at most two columns (a tab becomes two spaces): a short line without a break fits as it is.
  if (text.length * 2 <= w && !text.includes('\n')) return 1;
  return wrapText(text, w).length;
}

function detailRows(detail: string, width: number): number {
  const all = rows(detail, width - 6);
  return all > MAX_DETAIL_LINES ? MAX_DETAIL_LINES + 1 : all;
}

/** How many lines `entryLines(e, width, expanded)` returns, without laying them out. */
export function entryLineCount(e: ConversationEntry, width: number, expanded: boolean): number {
  switch (e.kind) {
    case 'message':
    case 'user':
    case 'question':
      return (e.cont ? 0 : 1) + rows(e.text, width - 2);
    case 'phase':
      return 1;
    case 'notice':
    case 'error':
      return rows(e.text, Math.max(1, width - 4));
    case 'tool':
    case 'command':
    case 'reasoning':
    case 'file':
      return expanded && e.detail ? 1 + detailRows(e.detail, width) : 1;
  }
}

interface Layout {
  width: number;
  expanded: boolean;
  count: number;
  lines: Line[] | null;
}

// Entries are immutable: an entry's count and lines are kept while it is in the conversation (and its width).
const layouts = new WeakMap<ConversationEntry, Layout>();

function layoutOf(e: ConversationEntry, width: number, expanded: boolean): Layout | null {
  const l = layouts.get(e);
  return l && l.width === width && l.expanded === expanded ? l : null;
}

function countOf(e: ConversationEntry, width: number, expanded: boolean): number {
  const known = layoutOf(e, width, expanded);
  if (known) return known.count;
  const count = entryLineCount(e, width, expanded);
  // One-line entries are counted again next time rather than remembered: a fast stream makes thousands a second.
  if (count > 2) layouts.set(e, { width, expanded, count, lines: null });
  return count;
}

// The entry a search read last: a search reads every entry once, a few hundred lines at a time. Keeping them all
// laid out would hold the whole conversation's lines in memory; keeping none would lay a long entry out again for
// each of its slices.
let peeked: (Layout & { entry: ConversationEntry }) | null = null;

function linesOf(e: ConversationEntry, width: number, expanded: boolean, keep: boolean): Line[] {
  const known = layoutOf(e, width, expanded);
  if (known?.lines) return known.lines;
  if (!keep && peeked?.entry === e && peeked.width === width && peeked.expanded === expanded && peeked.lines)
    return peeked.lines;
  const lines = entryLines(e, width, expanded);
  if (keep) layouts.set(e, { width, expanded, count: lines.length, lines });
  else peeked = { entry: e, width, expanded, count: lines.length, lines };
  return lines;
}

/** The conversation's lines after `head` (e.g. a note on what was dropped), laid out a window at a time. */
export function conversationSource(
  entries: readonly ConversationEntry[],
  width: number,
  expanded: boolean,
  head: readonly Line[] = [],
): LineSource {
  // ends[i]: the line after entry i (head lines first).
  const ends = new Uint32Array(entries.length);
  let total = head.length;
  for (let i = 0; i < entries.length; i++) {
    total += countOf(entries[i] as ConversationEntry, width, expanded);
    ends[i] = total;
  }
  const read = (start: number, end: number, keep: boolean): Line[] => {
    const from = Math.max(0, start);
    const to = Math.min(total, end);
    const out: Line[] = [];
    for (let n = from; n < Math.min(to, head.length); n++) out.push(head[n] as Line);
    if (to <= head.length) return out;
    // The first entry that ends after `from` (binary search), then entries until `to`.
    let lo = 0;
    let hi = entries.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((ends[mid] as number) > from) hi = mid;
      else lo = mid + 1;
    }
    for (let i = lo; i < entries.length; i++) {
      const first = i === 0 ? head.length : (ends[i - 1] as number);
      if (first >= to) break;
      const lines = linesOf(entries[i] as ConversationEntry, width, expanded, keep);
      for (let k = Math.max(0, from - first); k < lines.length && first + k < to; k++) out.push(lines[k] as Line);
    }
    return out;
  };
  return {
    length: total,
    slice: (start, end) => read(start, end, true),
    peek: (start, end) => read(start, end, false),
  };
}

/** All the lines of the conversation, laid out. */
export function conversationLines(entries: Iterable<ConversationEntry>, width: number, expanded: boolean): Line[] {
  const source = conversationSource([...entries], width, expanded);
  return source.slice(0, source.length);
}
