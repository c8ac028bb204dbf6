import { Box, Text } from './styled.js';
import { TAB_IDS, type TabId } from './keymap.js';
import { TAB_TITLES } from './tabs/content.js';

export const COLLAPSIBLE: ReadonlySet<TabId> = new Set(['log', 'status']);

/** The tab labels at a width: whole titles, else their first letters (four, then one), never wrapped. */
function tabLabels(tab: TabId, opened: ReadonlySet<TabId>, columns: number): string[] {
  const at = (letters: number): string[] =>
    TAB_IDS.map((id, i) => {
      const title = TAB_TITLES[id].slice(0, letters);
      const label = COLLAPSIBLE.has(id) && !opened.has(id) ? `${i + 1}:${title} ▸` : `${i + 1}:${title}`;
      return id === tab ? `[${label}]` : ` ${label} `;
    });
  // A label that did not fit was wrapped onto a second, nearly blank row under the tab bar.
  const fits = (labels: string[]): boolean => labels.join(' ').length <= columns;
  return [at(99), at(4), at(1)].find(fits) ?? at(0);
}

/** The tabs in order; Log and Status show only as a dim number until opened. */
export function TabBar({
  tab,
  opened,
  right,
  columns = 100,
}: {
  tab: TabId;
  opened: ReadonlySet<TabId>;
  right: string;
  columns?: number;
}) {
  const labels = tabLabels(tab, opened, columns);
  return (
    <Box columnGap={1} height={1} overflow="hidden">
      {TAB_IDS.map((id, i) =>
        id === tab ? (
          <Text key={id} inverse bold wrap="truncate">
            {labels[i]}
          </Text>
        ) : (
          <Text key={id} dimColor={COLLAPSIBLE.has(id) && !opened.has(id)} wrap="truncate">
            {labels[i]}
          </Text>
        ),
      )}
      <Box flexGrow={1} justifyContent="flex-end">
        <Text dimColor wrap="truncate">
          {right}
        </Text>
      </Box>
    </Box>
  );
}

/** The tabs Tab / Shift+Tab cycle through: the main ones and any opened. */
export function cycleTabs(opened: ReadonlySet<TabId>): TabId[] {
  return TAB_IDS.filter((id) => !COLLAPSIBLE.has(id) || opened.has(id));
}
