// `/` search over a tab's screen lines, as in less: smart case, the next match at or below a line, wrapping. Pure.
// A tab can hold hundreds of thousands of lines (the conversation is laid out lazily), so a scan does a bounded
// number of lines per call and says where to go on: the caller spreads a long search over several ticks.
import { peekLines, type LineSource } from './line-source.js';

/** Smart case, as in less -i / vim smartcase: a capital in the query makes it case-sensitive. */
export function isCaseSensitive(query: string): boolean {
  return query !== query.toLowerCase();
}

/** The query as a pattern matching it literally (global: it lists every match of a line). */
export function searchPattern(query: string): RegExp {
  const literal = query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(literal, isCaseSensitive(query) ? 'g' : 'gi');
}

/** Where `pattern` matches in `text`: [start, end) ranges, left to right, never empty. */
export function matchRanges(text: string, pattern: RegExp): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  if (pattern.source === '') return out;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    out.push([m.index, m.index + m[0].length]);
    if (m[0].length === 0) pattern.lastIndex++;
  }
  pattern.lastIndex = 0;
  return out;
}

function lineMatches(text: string, pattern: RegExp): boolean {
  pattern.lastIndex = 0;
  const found = pattern.test(text);
  pattern.lastIndex = 0;
  return found;
}

export type Direction = 1 | -1;

/** A scan under way: where it looks next, how many lines it has looked at, whether it went past an end. */
export interface Scan {
  pattern: RegExp;
  direction: Direction;
  /** The next line to look at. */
  at: number;
  /** Lines looked at so far; once it reaches `total` every line was seen. */
  seen: number;
  /** The tab's length when the scan started: the scan ends after that many lines. */
  total: number;
  wrapped: boolean;
}

export type ScanResult =
  { kind: 'found'; line: number; wrapped: boolean } | { kind: 'none' } | { kind: 'more'; scan: Scan };

/** A scan from line `from` (included) in `direction`, over a tab of `total` lines; past an end it wraps. */
export function startScan(query: string, from: number, direction: Direction, total: number): Scan {
  const past = from >= total || from < 0;
  const at = !past ? from : direction === 1 ? 0 : Math.max(0, total - 1);
  return { pattern: searchPattern(query), direction, at, seen: 0, total, wrapped: past && total > 0 };
}

/** Lines laid out per slice: small enough that a slice of a long conversation stays cheap. */
const SLICE = 250;

/**
 * Looks at up to `budget` lines of `source` from where `scan` stands. The source may have grown or shrunk since the
 * scan started (a stream goes on): positions past its end wrap as the end does.
 */
export function continueScan(source: LineSource, scan: Scan, budget: number): ScanResult {
  let { at, seen, wrapped } = scan;
  const length = source.length;
  if (length === 0 || scan.total === 0) return { kind: 'none' };
  let left = budget;
  while (left > 0 && seen < scan.total) {
    if (at >= length || at < 0) {
      at = scan.direction === 1 ? 0 : length - 1;
      wrapped = true;
    }
    const n = Math.min(SLICE, left, scan.total - seen, scan.direction === 1 ? length - at : at + 1);
    const from = scan.direction === 1 ? at : at - n + 1;
    const lines = peekLines(source, from, from + n);
    for (let i = 0; i < lines.length; i++) {
      const k = scan.direction === 1 ? i : lines.length - 1 - i;
      if (lineMatches((lines[k] as { text: string }).text, scan.pattern))
        return { kind: 'found', line: from + k, wrapped };
    }
    at += scan.direction * n;
    seen += n;
    left -= n;
  }
  if (seen >= scan.total) return { kind: 'none' };
  return { kind: 'more', scan: { ...scan, at, seen, wrapped } };
}

/** The first line to show so that `line` is in sight: the view stays when it is already, else it goes just above. */
export function revealLine(line: number, start: number, total: number, height: number): number {
  if (line >= start && line < start + height) return start;
  const maxTop = Math.max(0, total - height);
  return Math.min(Math.max(0, line - CONTEXT_ABOVE), maxTop);
}

/** Lines shown above a match scrolled into sight, for its context. */
const CONTEXT_ABOVE = 2;
