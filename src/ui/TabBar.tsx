import { Box, Text } from './styled.js';
import { TAB_IDS, type TabId } from './keymap.js';
import { TAB_TITLES } from './tabs/content.js';
import { textWidth } from './lines.js';

/** Columns kept for the scroll hint ("↑12 ↓3") when choosing how long the tab titles can be. */
const HINT_ROOM = 7;

export const COLLAPSIBLE: ReadonlySet<TabId> = new Set(['log', 'status']);

/**
 * The tab labels at a width, with room for `right` (the scroll hint): whole titles, else their first letters (four,
 * then one), never wrapped. Labels carry their own spacing (a space or a bracket each side): no gap between them.
 */
function tabLabels(tab: TabId, opened: ReadonlySet<TabId>, columns: number, right: string): string[] {
  const at = (letters: number): string[] =>
    TAB_IDS.map((id, i) => {
      const title = TAB_TITLES[id].slice(0, letters);
      const label = COLLAPSIBLE.has(id) && !opened.has(id) ? `${i + 1}:${title} ▸` : `${i + 1}:${title}`;
      return id === tab ? `[${label}]` : ` ${label} `;
    });
  // A label that did not fit was wrapped onto a second, nearly blank row under the tab bar.
  // The scroll hint keeps a few columns at most: at 80 the whole titles stay, and a longer hint is cut instead.
  const room = columns - (right ? Math.min(textWidth(right) + 1, HINT_ROOM) : 0);
  const fits = (labels: string[]): boolean => textWidth(labels.join('')) <= room;
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
  const labels = tabLabels(tab, opened, columns, right);
  return (
    <Box height={1} overflow="hidden">
      <Box flexShrink={0}>
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
      </Box>
      <Box flexGrow={1} flexShrink={1} justifyContent="flex-end" paddingLeft={1} overflow="hidden">
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
