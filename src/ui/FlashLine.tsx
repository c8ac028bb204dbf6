// The line(s) under the tabs for the last rejection, error or notice, coloured by its tone. A long one wraps onto
// a few rows; past them it says where it is whole (every notice is in the conversation too).
import { Box, Text } from './styled.js';
import { wrapText } from './lines.js';
import type { Tone, ViewState } from './view-model.js';

const TONE_COLOR: Record<Tone, string | undefined> = { error: 'red', warn: 'yellow', good: 'green', info: undefined };
export const FLASH_ROWS = 3;
const MORE = ' … (whole in 1:Conversation)';

/** The rows a flash takes at `columns`: at most FLASH_ROWS, the last one saying where the rest is. */
export function flashRows(text: string, columns: number): string[] {
  const rows = wrapText(text.replace(/\s*\n\s*/g, ' '), columns);
  if (rows.length <= FLASH_ROWS) return rows;
  const last = rows[FLASH_ROWS - 1] ?? '';
  return [...rows.slice(0, FLASH_ROWS - 1), `${last.slice(0, Math.max(0, columns - MORE.length))}${MORE}`];
}

export function FlashLine({ flash, columns = 100 }: { flash: ViewState['flash']; columns?: number }) {
  if (!flash) return null;
  return (
    <Box flexDirection="column">
      {flashRows(flash.text, columns).map((row, i) => (
        <Text key={i} wrap="truncate" color={TONE_COLOR[flash.tone]}>
          {row}
        </Text>
      ))}
    </Box>
  );
}
