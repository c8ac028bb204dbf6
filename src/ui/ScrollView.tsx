import type { ReactNode } from 'react';
import { Box, Text } from './styled.js';
import type { LineSource } from './line-source.js';
import type { Line, Viewport } from './lines.js';
import { visibleRange } from './lines.js';
import { matchRanges } from './search.js';
import type { Highlight } from './use-search.js';

/** A line's text with the search's matches in inverse (a style, so NO_COLOR keeps it); the current match also bold. */
function Marked({ text, highlight, current }: { text: string; highlight: Highlight; current: boolean }) {
  const ranges = matchRanges(text, highlight.pattern);
  if (ranges.length === 0) return <Text>{text || ' '}</Text>;
  // Every part through the styled Text, which shows control characters instead of passing them on.
  const parts: ReactNode[] = [];
  let at = 0;
  ranges.forEach(([from, to], i) => {
    if (from > at) parts.push(<Text key={`t${i}`}>{text.slice(at, from)}</Text>);
    parts.push(
      <Text key={`m${i}`} inverse bold={current} color={current ? 'yellow' : undefined}>
        {text.slice(from, to)}
      </Text>,
    );
    at = to;
  });
  if (at < text.length) parts.push(<Text key="end">{text.slice(at)}</Text>);
  return <>{parts}</>;
}

/**
 * Renders only the lines inside the window (and only those are laid out). Rows are keyed by their place on screen,
 * not by the line they show: scrolling or switching tabs updates the same few Text nodes instead of replacing them.
 */
export function ScrollView({
  lines,
  height,
  viewport,
  highlight = null,
}: {
  lines: LineSource;
  height: number;
  viewport: Viewport;
  /** The search's matches to mark (only the lines on screen are looked at). */
  highlight?: Highlight | null;
}) {
  const { start, end } = visibleRange(lines.length, height, viewport);
  return (
    // Never squeezed: for a frame the window may hold more rows than its box, whose overflow is cut instead.
    <Box flexDirection="column" flexGrow={1} flexShrink={0}>
      {lines.slice(start, end).map((l: Line, row) => (
        <Text key={row} color={l.color} dimColor={l.dim} bold={l.bold} inverse={l.inverse} wrap="truncate">
          {highlight ? (
            <Marked text={l.text} highlight={highlight} current={highlight.current === start + row} />
          ) : (
            l.text || ' '
          )}
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
