// Loads Ink, React and the TUI with React's production build. The development build (what loads when NODE_ENV
// is unset) re-checks every render and records performance marks: several times slower on a long stream, and
// more memory. NODE_ENV is set only while the modules load, so the agents' child processes (and the commands
// they run, e.g. `npm install`) never inherit it. For the same window `CI` / `CONTINUOUS_INTEGRATION` are hidden:
// Ink reads them once when it loads and, if set, draws nothing until it exits — right for a CI log, wrong for the
// person at this terminal (the TUI only runs on a TTY).
import type { render } from 'ink';
import type { createElement } from 'react';
import type { App } from './App.js';
import type { ResumeDialog } from './dialogs/ConfirmDialog.js';
import { importTui } from './import-tui.js';

export interface Ui {
  render: typeof render;
  createElement: typeof createElement;
  App: typeof App;
  ResumeDialog: typeof ResumeDialog;
}

const CI_VARS = ['CI', 'CONTINUOUS_INTEGRATION'] as const;

export async function loadUi(env: NodeJS.ProcessEnv = process.env): Promise<Ui> {
  const unset = env.NODE_ENV === undefined;
  if (unset) env.NODE_ENV = 'production';
  const hidden = CI_VARS.filter((k) => k in env).map((k) => [k, env[k]] as const);
  for (const [k] of hidden) delete env[k];
  try {
    const tui = await importTui();
    // React is CommonJS: its functions are on the default export (a bundler's chunk may offer nothing else).
    return { render: tui.render, createElement: tui.React.createElement, App: tui.App, ResumeDialog: tui.ResumeDialog };
  } finally {
    if (unset) delete env.NODE_ENV;
    for (const [k, v] of hidden) env[k] = v;
  }
}
