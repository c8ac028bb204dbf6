// What a text box shows of its editor: at most `maxRows` lines around the cursor's, and on the cursor's line a
// window of `width` columns that keeps the cursor in sight (the end of a long line, with the cursor after it, when
// the cursor is at the end). Pure: the component only draws these rows.
import { charWidth, textWidth } from './lines.js';
import { cursorPosition, type Editor } from './line-editor.js';

export interface EditorRow {
  /** Text before the cursor (the whole row when the cursor is not on it), `…` where it was cut. */
  before: string;
  /** The character under the cursor (a space at the line's end); null on the other rows. */
  at: string | null;
  after: string;
}

export interface EditorView {
  rows: EditorRow[];
  /** Lines out of sight above and below the rows shown. */
  above: number;
  below: number;
}

const ELLIPSIS = '…';

export function editorView(e: Editor, width: number, maxRows: number): EditorView {
  const lines = e.value.split('\n');
  const { line, column } = cursorPosition(e);
  const rowsShown = Math.max(1, Math.min(maxRows, lines.length));
  // The cursor's line is the last row shown unless the text's first lines are enough to reach it.
  const top = Math.max(0, Math.min(line - rowsShown + 1, lines.length - rowsShown));
  const w = Math.max(2, width);
  const rows = lines
    .slice(top, top + rowsShown)
    .map((text, i) =>
      top + i === line
        ? cursorRow(Array.from(shown(text)), column, w)
        : { before: cutEnd(shown(text), w), at: null, after: '' },
    );
  return { rows, above: top, below: lines.length - top - rowsShown };
}

/** A tab is drawn as one space (one cell, so the cursor's column stays right); the value keeps the tab. */
function shown(text: string): string {
  return text.replace(/\t/g, ' ');
}

function cutEnd(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const ch of text) {
    if (used + charWidth(ch) > width - 1) break;
    out += ch;
    used += charWidth(ch);
  }
  return out + ELLIPSIS;
}

/** The window of the cursor's line: all of it if it fits; else the end when the cursor is near it, else around it. */
function cursorRow(chars: string[], column: number, width: number): EditorRow {
  const at = chars[column] ?? ' ';
  const widthOf = (from: number, to: number): number => textWidth(chars.slice(from, to).join(''));
  const whole = textWidth(chars.join('')) + (column >= chars.length ? 1 : 0);
  if (whole <= width) return { before: chars.slice(0, column).join(''), at, after: chars.slice(column + 1).join('') };
  // From the cursor to the end fits with an ellipsis before: show as much before the cursor as fits.
  const tail = widthOf(column, chars.length) + (column >= chars.length ? 1 : 0);
  let from: number;
  let to: number;
  if (tail <= width - 1) {
    to = chars.length;
    from = column;
    while (from > 0 && 1 + widthOf(from - 1, to) + (column >= chars.length ? 1 : 0) <= width) from--;
  } else {
    // A third of the row before the cursor, the rest after it, an ellipsis at each cut end.
    from = column;
    while (from > 0 && widthOf(from - 1, column) < Math.floor(width / 3)) from--;
    to = column + 1;
    const room = width - (from > 0 ? 1 : 0) - 1; // the ellipsis at the end
    while (to < chars.length && widthOf(from, to + 1) <= room) to++;
  }
  const before = (from > 0 ? ELLIPSIS : '') + chars.slice(from, column).join('');
  const after = chars.slice(column + 1, to).join('') + (to < chars.length ? ELLIPSIS : '');
  return { before, at, after };
}
