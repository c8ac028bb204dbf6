// Reads the planner's answer to "which command runs the tests?" (prompt 08).

/** The command from a `Command: <cmd>` line (the last one wins), or null for `Command: none` / no such line. */
export function parseTestCommandAnswer(text: string): string | null {
  let found: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const m = /^\s*(?:[-*]\s*)?(?:\*\*)?command(?:\*\*)?\s*:\s*(.*)$/i.exec(raw);
    if (!m) continue;
    const value = (m[1] ?? '')
      .trim()
      .replace(/^`+|`+$/g, '')
      .trim();
    found = value;
  }
  if (found === null) return null;
  return found === '' || /^(none|n\/a|no tests?)\.?$/i.test(found) ? null : found;
}
