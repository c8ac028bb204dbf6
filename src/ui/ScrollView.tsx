import { Box, Text } from './styled.js';
import type { LineSource } from './line-source.js';
import type { Viewport } from './lines.js';
import { visibleRange } from './lines.js';

/**
 * Renders only the lines inside the window (and only those are laid out). Rows are keyed by their place on screen,
 * not by the line they show: scrolling or switching tabs updates the same few Text nodes instead of replacing them.
 */
export function ScrollView({ lines, height, viewport }: { lines: LineSource; height: number; viewport: Viewport }) {
  const { start, end } = visibleRange(lines.length, height, viewport);
  return (
    // Never squeezed: for a frame the window may hold more rows than its box, whose overflow is cut instead.
    <Box flexDirection="column" flexGrow={1} flexShrink={0}>
      {lines.slice(start, end).map((l, row) => (
        <Text key={row} color={l.color} dimColor={l.dim} bold={l.bold} inverse={l.inverse} wrap="truncate">
          {l.text || ' '}
        </Text>
      ))}
    </Box>
  );
}

/** "↑12 ↓3" (lines above / below the window), or '' when everything fits. */
export function scrollHint(total: number, height: number, viewport: Viewport): string {
  const { start, end } = visibleRange(total, height, viewport);
  const parts: string[] = [];
  if (start > 0) parts.push(`↑${start}`);
  if (end < total) parts.push(`↓${total - end}`);
  return parts.join(' ');
}
