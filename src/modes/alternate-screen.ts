// The TUI draws on the terminal's alternate screen, as full-screen tools do (lazygit, k9s, vim): the shell's
// scrollback stays as it was, and on exit the terminal comes back with one line saying where the run stands.
// The mouse mode asked for (`[tui] mouse`) is taken back with it, on every way out: a person's shell must never be
// left printing mouse reports.
// Bracketed paste goes with it: while the TUI is up a pasted text comes wrapped in ESC[200~ … ESC[201~, so its line
// breaks are text, not Enter (ui/paste.ts); the shell gets its own setting back on the way out.
import { mouseSequences, type MouseSetting } from './mouse-mode.js';
const ENTER = '\u001b[?1049h';
const LEAVE = '\u001b[?1049l';
const PASTE_ON = '\u001b[?2004h';
const PASTE_OFF = '\u001b[?2004l';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const SIGNAL_NUMBERS: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

export interface AlternateScreen {
  /** Back on the alternate screen after something on the terminal left it (the person's editor does). */
  reenter(): void;
  /** Back to the normal screen, then the lines kept for it; safe to call twice. */
  leave(): void;
  /** Until the returned function is called, these signals are the TUI's to handle (it stops gracefully then). */
  handles(signals: readonly NodeJS.Signals[]): () => void;
  /** A line for the normal screen: written once the TUI has left the alternate screen. */
  afterwards(line: string): void;
  /** Asks the terminal for this mouse mode (again after `lend`, `reenter` restores it); `leave` takes it back. */
  mouse(setting: MouseSetting): void;
  /** Another program (the person's editor) takes the terminal: the mouse mode is taken back until `reenter`. */
  lend(): void;
}

export function alternateScreen(out: NodeJS.WriteStream): AlternateScreen {
  const tty = out.isTTY === true;
  const lines: string[] = [];
  let left = false;
  let mouse: MouseSetting = 'off';
  let mouseOn = false;
  const mouseOff = (): void => {
    if (tty && mouseOn) out.write(mouseSequences(mouse).disable);
    mouseOn = false;
  };
  const mouseBack = (): void => {
    if (!tty || left || mouseOn || mouse === 'off') return;
    out.write(mouseSequences(mouse).enable);
    mouseOn = true;
  };
  // A crash or process.exit() must not leave the person's terminal on the alternate screen.
  const onExit = (): void => leave();
  function leave(): void {
    if (left) return;
    left = true;
    process.off('exit', onExit);
    for (const signal of SIGNALS) process.off(signal, onSignal);
    mouseOff();
    if (tty) {
      out.write(PASTE_OFF);
      out.write(LEAVE);
    }
    for (const line of lines.splice(0)) out.write(`${line}\n`);
  }
  // A signal nobody else handles (at the resume prompt, while the session closes, a second one during shutdown)
  // would end the process without its 'exit' event: leave the alternate screen first, then end as the signal would.
  const handled = new Map<NodeJS.Signals, number>();
  const onSignal = (signal: NodeJS.Signals): void => {
    if ((handled.get(signal) ?? 0) > 0) return; // the TUI handles it (a graceful stop)
    leave();
    process.exit(128 + (SIGNAL_NUMBERS[signal] ?? 1));
  };
  if (tty) {
    out.write(ENTER);
    out.write(PASTE_ON);
    process.on('exit', onExit);
    for (const signal of SIGNALS) process.on(signal, onSignal);
  }
  return {
    handles: (signals) => {
      for (const sig of signals) handled.set(sig, (handled.get(sig) ?? 0) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        for (const sig of signals) handled.set(sig, (handled.get(sig) ?? 1) - 1);
      };
    },
    reenter: () => {
      if (tty && !left) {
        out.write(ENTER);
        out.write(PASTE_ON); // the editor turned it off on its way out
      }
      mouseBack();
    },
    mouse: (setting) => {
      if (setting === mouse && mouseOn) return; // each new run's App asks again: once is enough
      mouseOff();
      mouse = setting;
      mouseBack();
    },
    lend: mouseOff,
    leave,
    afterwards: (line) => {
      if (left) out.write(`${line}\n`);
      else lines.push(line);
    },
  };
}
