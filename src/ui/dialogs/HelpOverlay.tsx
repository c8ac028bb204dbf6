import { useState } from 'react';
import { Box, Text } from '../styled.js';
import { useDialogKeys } from '../key-router.js';
import { bindingOf, helpRows, type KeyContext } from '../keymap.js';
import { Frame } from './Frame.js';

/** The keys column; a description wraps under its own column, never cut at the terminal's edge. */
const KEYS_WIDTH = 22;
/** The frame's border and padding, left and right. */
const FRAME_X = 4;
/** The frame's border, title and key line. */
const FRAME_Y = 4;

interface HelpLine {
  keys: string;
  text: string;
  active: boolean;
}

/** `text` in lines of at most `width` characters, broken between words (a longer word is split). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    for (let w = word; w; w = w.slice(width)) {
      const part = w.slice(0, width);
      if (!line) line = part;
      else if (line.length + 1 + part.length <= width) line += ` ${part}`;
      else {
        lines.push(line);
        line = part;
      }
    }
  }
  return lines.length || line ? [...lines, line] : [''];
}

/**
 * Every key from the keymap; the ones that apply now are bright. Descriptions wrap to the terminal's width; when the
 * help is taller than `maxLines`, ↑/↓ (PgUp/PgDn) scroll it. Esc, ?, q or Enter closes it.
 */
export function HelpOverlay({
  ctx,
  onClose,
  columns = 100,
  maxLines = 1000,
}: {
  ctx: KeyContext;
  onClose: () => void;
  columns?: number;
  maxLines?: number;
}) {
  const textWidth = Math.max(10, columns - FRAME_X - KEYS_WIDTH - 1);
  const lines: HelpLine[] = helpRows().flatMap((r) => {
    // The text boxes' keys (no command of their own) apply whenever a text box has the keyboard.
    const active = r.commands.length === 0 || r.commands.some((c) => bindingOf(c).when(ctx));
    return wrapWords(r.description, textWidth).map((text, i) => ({ keys: i === 0 ? r.keys : '', text, active }));
  });
  const height = Math.max(1, Math.min(lines.length, maxLines - FRAME_Y));
  const last = lines.length - height;
  const [top, setTop] = useState(0);
  useDialogKeys((input, key) => {
    if (key.escape || key.return || input === '?' || input === 'q') onClose();
    else if (key.upArrow) setTop((t) => Math.max(0, t - 1));
    else if (key.downArrow) setTop((t) => Math.min(last, t + 1));
    else if (key.pageUp) setTop((t) => Math.max(0, t - height));
    else if (key.pageDown) setTop((t) => Math.min(last, t + height));
  });
  const from = Math.min(top, last);
  const more = last > 0 ? ` · ↑/↓: scroll (${from + height}/${lines.length})` : '';
  return (
    <Frame title="Keys" keys={`Esc / ? / q: close${more}`} color="cyan">
      <Box flexDirection="column">
        {lines.slice(from, from + height).map((l, i) => (
          <Text key={`${from + i}`} dimColor={!l.active} wrap="truncate">
            {l.keys.padEnd(KEYS_WIDTH)} {l.text}
          </Text>
        ))}
      </Box>
    </Frame>
  );
}
