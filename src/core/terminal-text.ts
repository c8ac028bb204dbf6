// Text from outside (goals, agent answers, commands, file contents, CLI errors) on its way to a terminal: its
// control characters are shown, never obeyed. An ESC from an agent could otherwise move the cursor, rewrite the
// screen, set the window title, change the clipboard (OSC 52) or forge agent-collab's own output; a lone CR could
// overwrite a line. agent-collab's own styling is not text: Ink adds it around the neutralized text.

/**
 * C0 controls except tab and newline, DEL, and the C1 controls (U+0080–U+009F: a terminal may take U+009B as CSI,
 * U+009D as OSC). Built from code points, so no control character sits in the source.
 */
const CONTROL = new RegExp(`\\r\\n|[${range(0x00, 0x08)}${range(0x0b, 0x1f)}${range(0x7f, 0x9f)}]`, 'g');

function range(from: number, to: number): string {
  return `\\u${hex4(from)}-\\u${hex4(to)}`;
}

function hex4(n: number): string {
  return n.toString(16).padStart(4, '0');
}

/** U+2400 "Control Pictures": ␀ … ␟ for C0, ␡ for DEL. */
const CONTROL_PICTURES = 0x2400;
const DEL = 0x7f;

/**
 * `text` with every control character made visible, one character for one (layout stays simple): C0 as its Control
 * Picture (ESC → ␛, BEL → ␇, CR → ␍, …), DEL as ␡, a C1 control as �. A CR LF pair becomes a plain newline; tab and
 * newline stay. Idempotent, and the identity (the same string) when there is nothing to neutralize.
 */
export function neutralizeControls(text: string): string {
  CONTROL.lastIndex = 0;
  if (!CONTROL.test(text)) return text;
  CONTROL.lastIndex = 0;
  return text.replace(CONTROL, (ch) => {
    if (ch === '\r\n') return '\n';
    const cp = ch.charCodeAt(0);
    if (cp < 0x20) return String.fromCharCode(CONTROL_PICTURES + cp);
    if (cp === DEL) return '\u2421';
    return '\ufffd';
  });
}

/**
 * JSON text with DEL and the C1 controls escaped too (`JSON.stringify` escapes only U+0000–U+001F): an NDJSON line
 * shown on a terminal (`cat`, `tail -f`) carries no control character at all. Still the same JSON value.
 */
export function escapeJsonControls(json: string): string {
  return json.replace(/[\u007f-\u009f]/g, (ch) => `\\u${hex4(ch.charCodeAt(0))}`);
}
