// Telling the person their input is needed: a terminal bell always, and an OSC 9 desktop notification on the
// terminals known to show one (others would print it or ignore it). Detection is by environment only.

/** Terminals that show `ESC ] 9 ; text BEL` as a notification: iTerm2, WezTerm, Windows Terminal, kitty, Ghostty. */
export function supportsOsc9(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.TMUX || env.STY) return false; // tmux / screen swallow or mangle it without passthrough
  const program = env.TERM_PROGRAM ?? '';
  if (program === 'iTerm.app' || program === 'WezTerm' || program === 'ghostty') return true;
  if (env.WT_SESSION) return true; // Windows Terminal
  return env.TERM === 'xterm-kitty' || Boolean(env.KITTY_WINDOW_ID);
}

/** What to write to the terminal: the bell, plus the notification where supported. */
export function attentionSequence(what: string, env: NodeJS.ProcessEnv = process.env): string {
  const bell = '\u0007';
  if (!supportsOsc9(env)) return bell;
  // A control character (BEL, ESC, or C1's ST) inside would end the sequence early.
  const text = Array.from(`agent-collab: ${what}`, (ch) => (ch < ' ' || (ch >= '\u007f' && ch <= '\u009f') ? ' ' : ch))
    .join('')
    .slice(0, 200);
  return `${bell}\u001b]9;${text}\u0007`;
}
