// `agent-collab` on a terminal: loads Ink and draws the TUI's first frame (tab bar, "opening the session…"), and only
// then loads the session, the engine and the agents (./interactive.js). Nothing here may import them statically:
// esbuild would load their ~1 MB of chunks (execa, zod, the engine) before the first frame (measured: ~170 ms of CPU on a busy 2-core machine).
import { loadUi } from '../ui/load-ui.js';
import { alternateScreen } from './alternate-screen.js';
import { renderOptions, type InteractiveOptions, type Io } from './tui-io.js';

export type { InteractiveOptions } from './tui-io.js';

export async function runInteractive(opts: InteractiveOptions): Promise<number> {
  const stdout = opts.stdout ?? process.stdout;
  const ui = await loadUi();
  const io: Io = { stdin: opts.stdin ?? process.stdin, stdout, screen: alternateScreen(stdout) };
  const opening = ui.render(ui.createElement(ui.OpeningScreen), renderOptions(io));
  let openingShown = true;
  const closeOpening = (): void => {
    if (!openingShown) return;
    openingShown = false;
    opening.clear();
    opening.unmount();
  };
  try {
    const { runTui } = await import('./interactive.js');
    return await runTui(opts, io, ui, closeOpening);
  } finally {
    closeOpening();
    io.screen.leave();
  }
}
