// The Log tab's state: the selected event (moved by the scroll keys) and the expanded ones, over log.md and the
// tail of debug.log parsed into events.
import { useMemo, useState } from 'react';
import type { ScrollCommand } from './keymap.js';
import type { Line, Viewport } from './lines.js';
import { logEvents } from './log-events.js';
import { logLayout, logViewport, moveSelection, NEWEST, toggleSelected, type LogSelection } from './tabs/log-tab.js';
import type { FileTexts } from './use-files.js';

export interface LogView {
  lines: Line[];
  viewport: Viewport;
  move(cmd: ScrollCommand): void;
  /** Expands or collapses the selected event. */
  toggle(): void;
  /** Selects the event a screen line belongs to (a search's match), which brings it into sight. */
  selectLine(line: number): void;
}

export function useLogView(texts: FileTexts, width: number, height: number, active: boolean): LogView {
  const [sel, setSel] = useState<LogSelection>(NEWEST);
  const events = useMemo(() => (active ? logEvents(texts.log, texts.debug) : []), [active, texts.log, texts.debug]);
  const layout = useMemo(() => logLayout(events, sel, width), [events, sel, width]);
  // The window is kept where the selection put it: the next move starts from there.
  const settle = (next: LogSelection): LogSelection => ({
    ...next,
    top: logViewport(logLayout(events, next, width), next, height).top,
  });
  return {
    lines: layout.lines,
    viewport: logViewport(layout, sel, height),
    move: (cmd) => setSel((s) => settle(moveSelection(s, cmd, events.length, height))),
    toggle: () => setSel((s) => settle(toggleSelected(events, s))),
    selectLine: (line) => {
      // Each line's key starts with its event's index (`e12`, `e12:3` for a line of its details).
      const index = Number(/^e(\d+)/.exec(layout.lines[line]?.key ?? '')?.[1] ?? NaN);
      if (Number.isInteger(index)) setSel((s) => settle({ ...s, fromEnd: Math.max(0, events.length - 1 - index) }));
    },
  };
}
