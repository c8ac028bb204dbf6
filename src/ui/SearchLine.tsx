// The search's line above the status bar: the prompt while it is typed, then the search in effect with what it
// found ("search wrapped to the top", "no match for …") and its keys.
import { Box, Text } from './styled.js';
import type { Search } from './use-search.js';

const TONE_COLOR = { info: undefined, warn: 'yellow' } as const;

export function SearchLine({ search }: { search: Pick<Search, 'prompt' | 'query' | 'note'> }) {
  const { prompt, query, note } = search;
  if (prompt !== null) {
    return (
      <Box flexShrink={0}>
        <Text wrap="truncate-start">/{prompt}</Text>
        <Text inverse> </Text>
        <Box flexShrink={1} minWidth={0}>
          <Text dimColor wrap="truncate">
            {'  '}Enter: search{query ? ` (empty: /${query} again)` : ''} · Esc: cancel
          </Text>
        </Box>
      </Box>
    );
  }
  if (query === null && note === null) return null;
  return (
    <Box flexShrink={0}>
      {query !== null ? <Text wrap="truncate">/{query} </Text> : null}
      <Box flexShrink={1} minWidth={0}>
        <Text wrap="truncate">
          {note ? <Text color={TONE_COLOR[note.tone]}>{note.text} · </Text> : null}
          <Text dimColor>n / N: next / previous · Esc: clear</Text>
        </Text>
      </Box>
    </Box>
  );
}
