// Loads the TUI module. From the sources this is a plain import(); the build replaces this file's body so that the
// main bundle asks the launcher for dist/tui/tui-<hash>.js instead (scripts/bundle.mjs).
import type * as Tui from './tui.js';

export function importTui(): Promise<typeof Tui> {
  return import('./tui.js');
}
