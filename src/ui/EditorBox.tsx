// A text box's text: the line editor's rows (editor-view.ts) after a label, the cursor an inverse cell (a style,
// so NO_COLOR keeps it). It grows with the text up to `maxRows` rows, then scrolls with the cursor.
import { editorView } from './editor-view.js';
import type { Editor } from './line-editor.js';
import { textWidth } from './lines.js';
import { Box, Text } from './styled.js';
import { useTerminalSize } from './use-terminal-size.js';

export const EDITOR_MAX_ROWS = 6;

export interface EditorBoxProps {
  label: string;
  editor: Editor;
  /** The box has the keyboard: the cursor is drawn. */
  active: boolean;
  /** The columns the frames around the text take (borders, padding): the text gets the rest. */
  inset: number;
  color?: string;
}

export function EditorBox({ label, editor, active, inset, color = 'green' }: EditorBoxProps) {
  const { columns } = useTerminalSize();
  const labelWidth = textWidth(label);
  const view = editorView(editor, Math.max(4, columns - inset - labelWidth), EDITOR_MAX_ROWS);
  const hidden = [view.above > 0 ? `${view.above} line(s) above` : '', view.below > 0 ? `${view.below} below` : '']
    .filter(Boolean)
    .join(', ');
  return (
    <Box flexDirection="column">
      {view.rows.map((row, i) => (
        <Box key={i}>
          <Box flexShrink={0}>
            <Text color={color}>{i === 0 ? label : ' '.repeat(labelWidth)}</Text>
          </Box>
          <Text wrap="truncate-end">
            {row.before}
            {row.at === null ? '' : active ? <Text inverse>{row.at}</Text> : row.at === ' ' ? '' : row.at}
            {row.after}
          </Text>
        </Box>
      ))}
      {hidden ? <Text dimColor>{`(${hidden})`}</Text> : null}
    </Box>
  );
}
