import { Box, Text } from './styled.js';
import { TAB_IDS, type TabId } from './keymap.js';
import { TAB_TITLES } from './tabs/content.js';

export const COLLAPSIBLE: ReadonlySet<TabId> = new Set(['log', 'status']);

/** The tabs in order; Log and Status show only as a dim number until opened. */
export function TabBar({ tab, opened, right }: { tab: TabId; opened: ReadonlySet<TabId>; right: string }) {
  return (
    <Box columnGap={1}>
      {TAB_IDS.map((id, i) => {
        const collapsed = COLLAPSIBLE.has(id) && !opened.has(id);
        const label = collapsed ? `${i + 1}:${TAB_TITLES[id]} ▸` : `${i + 1}:${TAB_TITLES[id]}`;
        return id === tab ? (
          <Text key={id} inverse bold>
            {`[${label}]`}
          </Text>
        ) : (
          <Text key={id} dimColor={collapsed}>
            {` ${label} `}
          </Text>
        );
      })}
      <Box flexGrow={1} justifyContent="flex-end">
        <Text dimColor>{right}</Text>
      </Box>
    </Box>
  );
}

/** The tabs Tab / Shift+Tab cycle through: the main ones and any opened. */
export function cycleTabs(opened: ReadonlySet<TabId>): TabId[] {
  return TAB_IDS.filter((id) => !COLLAPSIBLE.has(id) || opened.has(id));
}
