// The window onto the tab shown: its lines, where each tab is scrolled, the `/` search in it, and the height it
// has (measured, so the window holds exactly what fits). The Log tab's window follows its selected event.
import { measureElement, type DOMElement } from 'ink';
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { BudgetCaps } from '../core/budget.js';
import type { ScrollCommand, TabId } from './keymap.js';
import type { LineSource } from './line-source.js';
import { FOLLOW, scrollViewport, TOP, wheelViewport, type Viewport } from './lines.js';
import type { FilesReader } from './ports.js';
import { codeTab, commentsTab, conversationTab, planTab, statusTab, type RunSetup } from './tabs/content.js';
import { useDiffView } from './use-diff-view.js';
import type { FileTexts } from './use-files.js';
import { useLogView } from './use-log-view.js';
import { useSearch, type Search } from './use-search.js';
import type { ViewState } from './view-model.js';

const INITIAL_VIEWPORTS: Record<TabId, Viewport> = {
  conversation: FOLLOW,
  plan: TOP,
  comments: TOP,
  log: FOLLOW,
  status: TOP,
  code: TOP,
  diff: TOP,
};

export interface TabWindowInput {
  tab: TabId;
  view: ViewState;
  texts: FileTexts;
  files: FilesReader;
  width: number;
  /** The terminal's rows: the height the window starts with, until it is measured. */
  rows: number;
  now: () => number;
  roles: RunSetup['roles'] | undefined;
  budget: BudgetCaps | undefined;
}

export interface TabWindow {
  /** The element whose height the window takes. */
  ref: RefObject<DOMElement | null>;
  height: number;
  lines: LineSource;
  viewport: Viewport;
  search: Search;
  scroll: (cmd: ScrollCommand) => void;
  /** The mouse wheel: -1 up, 1 down. */
  wheel: (direction: 1 | -1) => void;
  /** `x`: the tool calls (Conversation) or the selected event (Log), expanded or collapsed. */
  toggleDetails: () => void;
  /** `[` / `]`: the Diff tab's previous / next patch, shown from its top. */
  stepDiff: (step: 1 | -1) => void;
}

export function useTabWindow({ tab, view, texts, files, width, rows, now, roles, budget }: TabWindowInput): TabWindow {
  const [viewports, setViewports] = useState(INITIAL_VIEWPORTS);
  const [expanded, setExpanded] = useState(false);
  const ref = useRef<DOMElement>(null);
  const [height, setHeight] = useState(Math.max(3, rows - 10));
  useEffect(() => {
    if (!ref.current) return;
    const h = measureElement(ref.current).height;
    if (h > 0 && h !== height) setHeight(h);
  });

  const logView = useLogView(texts, width, height, tab === 'log');
  const diffView = useDiffView(view.state, files, width, tab === 'diff');
  const lines: LineSource = useMemo(() => {
    switch (tab) {
      case 'conversation':
        return conversationTab(view, width, expanded);
      case 'plan':
        return planTab(view, texts, width);
      case 'comments':
        return commentsTab(view, texts, width);
      case 'log':
        return logView.lines;
      case 'status':
        return statusTab(view, width, now(), {
          ...(roles && { roles }),
          ...(budget && { budget }),
        });
      case 'code':
        return codeTab(view, width);
      case 'diff':
        return diffView.lines;
    }
  }, [tab, view, texts, width, expanded, now, roles, budget, logView.lines, diffView.lines]);
  // The Log tab's window follows its selected event; the others keep where the person scrolled.
  const viewport = tab === 'log' ? logView.viewport : viewports[tab];
  const search = useSearch({
    lines,
    tab,
    viewport,
    height,
    // The Log tab's window follows its selected event: a match there selects its event.
    setViewport: (id, update, line) =>
      id === 'log' ? logView.selectLine(line) : setViewports((v) => ({ ...v, [id]: update(v[id]) })),
  });

  return {
    ref,
    height,
    lines,
    viewport,
    search,
    scroll: (cmd) =>
      tab === 'log'
        ? logView.move(cmd)
        : setViewports((v) => ({ ...v, [tab]: scrollViewport(v[tab], cmd, lines.length, height) })),
    // The Log tab's window follows its selection: the wheel moves that.
    wheel: (direction) =>
      tab === 'log'
        ? logView.move(direction < 0 ? 'scroll_up' : 'scroll_down')
        : setViewports((v) => ({ ...v, [tab]: wheelViewport(v[tab], direction, lines.length, height) })),
    toggleDetails: () => (tab === 'log' ? logView.toggle() : setExpanded((x) => !x)),
    stepDiff: (step) => {
      if (diffView.step(step)) setViewports((v) => ({ ...v, diff: TOP }));
    },
  };
}
