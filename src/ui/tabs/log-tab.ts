// The Log tab: one line per event (time, who, kind, summary), a selected one (moved with the scroll keys) that
// `x` expands into the whole event, pretty-printed and wrapped. Pure: the App keeps the selection.
import { truncate, wrapText, type Line, type Viewport } from '../lines.js';
import type { ScrollCommand } from '../keymap.js';
import { clock, type LogEvent } from '../log-events.js';

/** An expanded event shows at most this many lines (a huge tool output stays readable, and cheap). */
export const MAX_EXPANDED_LINES = 200;

/** Where the selection is: counted from the newest event, so new events arriving keep it on the same one. */
export interface LogSelection {
  fromEnd: number;
  /** Keys of the expanded events. */
  expanded: ReadonlySet<string>;
  /** The first line shown (kept as the person scrolled, moved only to keep the selection in sight). */
  top: number;
}

export const NEWEST: LogSelection = { fromEnd: 0, expanded: new Set(), top: 0 };

const WHO_COLOR: Record<string, string> = { planner: 'cyan', reviewer: 'magenta', 'log.md': 'green' };

function kindColor(e: LogEvent): string | undefined {
  if (e.kind === 'error' || e.kind === 'stderr' || /^error: /.test(e.summary)) return 'red';
  return WHO_COLOR[e.who];
}

export interface LogLayout {
  lines: Line[];
  /** The selected event's index, and its first and last line. */
  selected: number;
  first: number;
  last: number;
}

export function selectedIndex(events: readonly LogEvent[], sel: LogSelection): number {
  return Math.max(0, events.length - 1 - Math.min(sel.fromEnd, Math.max(0, events.length - 1)));
}

/** The screen lines: a head, then the events (the selected one inverse, the expanded ones with their detail). */
export function logLayout(events: readonly LogEvent[], sel: LogSelection, width: number): LogLayout {
  const lines: Line[] = [];
  if (events.length === 0) {
    lines.push({ key: 'l-empty', text: 'No events yet: log.md and debug.log are empty.', dim: true });
    return { lines, selected: -1, first: 0, last: 0 };
  }
  const selected = selectedIndex(events, sel);
  let first = 0;
  let last = 0;
  events.forEach((e, i) => {
    const open = sel.expanded.has(e.key);
    if (i === selected) first = lines.length;
    const head = `${open ? '▾' : '▸'} ${clock(e.at)} ${e.who.padEnd(9)} ${e.kind.padEnd(11)} ${e.summary}`;
    lines.push({
      key: `e${i}`,
      text: truncate(head, width),
      color: kindColor(e),
      inverse: i === selected || undefined,
    });
    if (open) {
      const all = wrapText(e.detail, Math.max(1, width - 4));
      all.slice(0, MAX_EXPANDED_LINES).forEach((t, k) => lines.push({ key: `e${i}:${k}`, text: `    ${t}` }));
      if (all.length > MAX_EXPANDED_LINES)
        lines.push({ key: `e${i}:more`, text: `    … ${all.length - MAX_EXPANDED_LINES} more line(s)`, dim: true });
    }
    if (i === selected) last = lines.length - 1;
  });
  return { lines, selected, first, last };
}

/** The selection after a scroll key: ↑/↓ (k/j) one event, the page keys a page of events, Home/End the ends. */
export function moveSelection(sel: LogSelection, cmd: ScrollCommand, count: number, height: number): LogSelection {
  const max = Math.max(0, count - 1);
  const page = Math.max(1, height - 1);
  const half = Math.max(1, Math.floor(height / 2));
  const by: Record<ScrollCommand, number> = {
    scroll_up: 1,
    scroll_down: -1,
    page_up: page,
    page_down: -page,
    half_page_up: half,
    half_page_down: -half,
    scroll_top: max + 1,
    scroll_bottom: -(max + 1),
  };
  const fromEnd = Math.min(max, Math.max(0, Math.min(sel.fromEnd, max) + by[cmd]));
  return { ...sel, fromEnd };
}

export function toggleSelected(events: readonly LogEvent[], sel: LogSelection): LogSelection {
  const e = events[selectedIndex(events, sel)];
  if (!e) return sel;
  const expanded = new Set(sel.expanded);
  if (!expanded.delete(e.key)) expanded.add(e.key);
  return { ...sel, expanded };
}

/**
 * The window over the lines: where the person left it, moved just enough to show the selected event (as much of
 * an expanded one as fits); the newest event selected and collapsed follows the stream.
 */
export function logViewport(layout: LogLayout, sel: LogSelection, height: number): Viewport {
  const total = layout.lines.length;
  const maxTop = Math.max(0, total - height);
  if (sel.fromEnd === 0 && layout.first === layout.last) return { top: maxTop, follow: true };
  let top = Math.min(sel.top, maxTop);
  const end = Math.min(layout.last, layout.first + height - 1);
  if (end >= top + height) top = end - height + 1;
  if (layout.first < top) top = layout.first;
  return { top: Math.max(0, Math.min(top, maxTop)), follow: false };
}
