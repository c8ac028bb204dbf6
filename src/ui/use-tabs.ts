// Which tab is shown, and which of the tabs that open on demand (Log, Status) are open: 1-7 show a tab (pressed
// again, an on-demand tab closes), Tab / Shift+Tab go round the open ones.
import { useState } from 'react';
import type { TabId } from './keymap.js';
import { COLLAPSIBLE, cycleTabs } from './TabBar.js';

export interface Tabs {
  tab: TabId;
  opened: ReadonlySet<TabId>;
  show: (id: TabId) => void;
  cycle: (step: 1 | -1) => void;
}

export function useTabs(): Tabs {
  const [tab, setTab] = useState<TabId>('conversation');
  const [opened, setOpened] = useState<ReadonlySet<TabId>>(new Set());

  const show = (id: TabId): void => {
    if (COLLAPSIBLE.has(id)) {
      if (tab === id) {
        setOpened((o) => new Set([...o].filter((x) => x !== id)));
        setTab('conversation');
        return;
      }
      setOpened((o) => new Set([...o, id]));
    }
    setTab(id);
  };

  const cycle = (step: 1 | -1): void => {
    const list = cycleTabs(opened);
    const i = list.indexOf(tab);
    setTab(list[(i + step + list.length) % list.length] ?? 'conversation');
  };

  return { tab, opened, show, cycle };
}
