// The TUI draws on the terminal's alternate screen, as full-screen tools do (lazygit, k9s, vim): the shell's
// scrollback stays as it was, and on exit the terminal comes back with one line saying where the run stands.
const ENTER = '\u001b[?1049h';
const LEAVE = '\u001b[?1049l';

export interface AlternateScreen {
  /** Back on the alternate screen after something on the terminal left it (the person's editor does). */
  reenter(): void;
  /** Back to the normal screen, then the lines kept for it; safe to call twice. */
  leave(): void;
  /** A line for the normal screen: written once the TUI has left the alternate screen. */
  afterwards(line: string): void;
}

export function alternateScreen(out: NodeJS.WriteStream): AlternateScreen {
  const tty = out.isTTY === true;
  const lines: string[] = [];
  let left = false;
  // A crash or process.exit() must not leave the person's terminal on the alternate screen.
  const onExit = (): void => leave();
  function leave(): void {
    if (left) return;
    left = true;
    process.off('exit', onExit);
    if (tty) out.write(LEAVE);
    for (const line of lines.splice(0)) out.write(`${line}\n`);
  }
  if (tty) {
    out.write(ENTER);
    process.on('exit', onExit);
  }
  return {
    reenter: () => {
      if (tty && !left) out.write(ENTER);
    },
    leave,
    afterwards: (line) => {
      if (left) out.write(`${line}\n`);
      else lines.push(line);
    },
  };
}
