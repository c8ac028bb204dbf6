// `/` search in the tab shown (less, lazygit, k9s): a one-line prompt, Enter finds the first match at or below the
// view and scrolls it into sight, n / N go on, Esc clears. Any tab: it reads the tab's LineSource, the lines as
// rendered. A long tab is scanned a few milliseconds at a time between frames, so keys and the stream go on.
import type { Key } from 'ink';
import { useEffect, useRef, useState } from 'react';
import type { TabId } from './keymap.js';
import type { LineSource } from './line-source.js';
import { visibleRange, type Viewport } from './lines.js';
import { continueScan, revealLine, searchPattern, startScan, type Direction, type Scan } from './search.js';

export interface SearchNote {
  text: string;
  tone: 'info' | 'warn';
}

/** What the tab's window highlights: the matches of `pattern`, and the current match's line. */
export interface Highlight {
  pattern: RegExp;
  current: number | null;
}

export interface Search {
  /** What is typed in the prompt; null when the prompt is closed. */
  prompt: string | null;
  /** The search in effect (after Enter); null when none. */
  query: string | null;
  note: SearchNote | null;
  highlight: Highlight | null;
  open(): void;
  /** A key while the prompt is open (the prompt has the keyboard then). */
  onPromptKey(input: string, key: Key): void;
  next(): void;
  previous(): void;
  clear(): void;
}

export interface SearchTarget {
  lines: LineSource;
  tab: TabId;
  viewport: Viewport;
  height: number;
  /** Moves the tab's view (the search scrolls a match into sight); `line` is the match's line. */
  setViewport(tab: TabId, update: (vp: Viewport) => Viewport, line: number): void;
}

/** Lines looked at per slice of a scan, and how long one tick's slices may take before the next frame. */
const CHUNK = 250;
const TICK_MS = 8;

export function useSearch(target: SearchTarget): Search {
  const [prompt, setPrompt] = useState<string | null>(null);
  const [query, setQuery] = useState<string | null>(null);
  const [current, setCurrent] = useState<{ tab: TabId; line: number } | null>(null);
  const [note, setNote] = useState<SearchNote | null>(null);
  const latest = useRef(target);
  latest.current = target;
  const job = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const cancel = (): void => {
    job.current++;
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  };
  // A scan belongs to the tab it started on; another tab (or leaving) ends it.
  useEffect(() => cancel, [target.tab]);

  const viewStart = (): number => {
    const t = latest.current;
    return visibleRange(t.lines.length, t.height, t.viewport).start;
  };

  const find = (text: string, from: number, direction: Direction): void => {
    cancel();
    const id = job.current;
    const tab = latest.current.tab;
    let scan: Scan = startScan(text, from, direction, latest.current.lines.length);
    const step = (): void => {
      if (id !== job.current) return;
      timer.current = null;
      const began = performance.now();
      for (;;) {
        const r = continueScan(latest.current.lines, scan, CHUNK);
        if (r.kind === 'none') {
          setCurrent(null);
          setNote({ text: `no match for “${text}”`, tone: 'warn' });
          return;
        }
        if (r.kind === 'found') {
          setCurrent({ tab, line: r.line });
          setNote(
            r.wrapped ? { text: `search wrapped to the ${direction === 1 ? 'top' : 'end'}`, tone: 'warn' } : null,
          );
          latest.current.setViewport(
            tab,
            (vp) => {
              const { lines, height } = latest.current;
              const { start } = visibleRange(lines.length, height, vp);
              return { top: revealLine(r.line, start, lines.length, height), follow: false };
            },
            r.line,
          );
          return;
        }
        scan = r.scan;
        if (performance.now() - began >= TICK_MS) break;
      }
      const percent = Math.floor((100 * scan.seen) / Math.max(1, scan.total));
      setNote({ text: `searching… ${percent}% of ${scan.total.toLocaleString('en-US')} lines`, tone: 'info' });
      timer.current = setTimeout(step, 0);
    };
    step();
  };

  const submit = (typed: string): void => {
    setPrompt(null);
    // An empty query repeats the last one, as in less.
    const text = typed || query;
    if (!text) return;
    setQuery(text);
    find(text, viewStart(), 1);
  };

  const currentLine = current && current.tab === target.tab ? current.line : null;
  const go = (direction: Direction): void => {
    if (!query) return;
    const from = currentLine !== null ? currentLine + direction : direction === 1 ? viewStart() : viewStart() - 1;
    find(query, from, direction);
  };

  const shown = prompt ? prompt : prompt === null ? query : null;
  return {
    prompt,
    query,
    note,
    highlight: shown ? { pattern: searchPattern(shown), current: prompt === null ? currentLine : null } : null,
    open: () => setPrompt(''),
    onPromptKey: (input, key) => {
      const typed = prompt ?? '';
      if (key.return) return submit(typed);
      // Esc, or Backspace on an empty prompt (as in less and vim), closes the prompt; the search in effect stays.
      if (key.escape || ((key.backspace || key.delete) && typed === '')) return setPrompt(null);
      if (key.backspace || key.delete) return setPrompt(Array.from(typed).slice(0, -1).join(''));
      if (key.ctrl && input === 'u') return setPrompt('');
      if (key.ctrl || key.meta || key.tab || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow) return;
      if (key.pageUp || key.pageDown || key.home || key.end) return;
      // Keys that arrive together come as one input (a paste, a fast terminal): a line break in it is the Enter.
      const [line = '', ...after] = input.split(/\r\n?|\n/);
      const text = Array.from(line)
        .filter((ch) => ch >= ' ' && ch !== '\u007f')
        .join('');
      if (after.length > 0) return submit(typed + text);
      if (text) setPrompt(typed + text);
    },
    next: () => go(1),
    previous: () => go(-1),
    clear: () => {
      cancel();
      setQuery(null);
      setCurrent(null);
      setNote(null);
    },
  };
}
