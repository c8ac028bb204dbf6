// Loads Ink, React and the TUI with React's production build. The development build (what loads when NODE_ENV
// is unset) re-checks every render and records performance marks: several times slower on a long stream, and
// more memory. NODE_ENV is set only while the modules load, so the agents' child processes (and the commands
// they run, e.g. `npm install`) never inherit it. For the same window `CI` / `CONTINUOUS_INTEGRATION` and `DEV` are
// hidden: Ink reads them once when it loads. With CI set it draws nothing until it exits — right for a CI log, wrong
// for the person at this terminal (the TUI only runs on a TTY); with DEV=true it tries to reach React DevTools
// (not a dependency) and reads a package.json next to its module, which the bundle does not have.
import type { render } from 'ink';
import type { createElement } from 'react';
import type { App } from './App.js';
import type { ResumeDialog } from './dialogs/ConfirmDialog.js';
import type { OpeningScreen } from './OpeningScreen.js';

export interface Ui {
  render: typeof render;
  createElement: typeof createElement;
  App: typeof App;
  ResumeDialog: typeof ResumeDialog;
  OpeningScreen: typeof OpeningScreen;
}

const HIDDEN_WHILE_LOADING = ['CI', 'CONTINUOUS_INTEGRATION', 'DEV'] as const;

export async function loadUi(env: NodeJS.ProcessEnv = process.env): Promise<Ui> {
  const unset = env.NODE_ENV === undefined;
  if (unset) env.NODE_ENV = 'production';
  const hidden = HIDDEN_WHILE_LOADING.filter((k) => k in env).map((k) => [k, env[k]] as const);
  for (const [k] of hidden) delete env[k];
  // Yoga (Ink's layout engine) loads its inlined WASM with fetch() when there is one, which first loads Node's
  // whole HTTP client; without it, yoga decodes the same bytes itself.
  const fetchProperty = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
  if (fetchProperty) delete (globalThis as { fetch?: unknown }).fetch;
  try {
    const tui = await import('./tui.js');
    // React is CommonJS: its functions are on the default export (the bundle offers nothing else).
    return {
      render: tui.render,
      createElement: tui.React.createElement,
      App: tui.App,
      ResumeDialog: tui.ResumeDialog,
      OpeningScreen: tui.OpeningScreen,
    };
  } finally {
    if (fetchProperty) Object.defineProperty(globalThis, 'fetch', fetchProperty);
    if (unset) delete env.NODE_ENV;
    for (const [k, v] of hidden) env[k] = v;
  }
}
