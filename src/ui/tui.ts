// Everything the TUI needs from Ink and React, in one module that load-ui.ts imports when the TUI starts: the other
// commands never load Ink or React.
export { render } from 'ink';
export { default as React } from 'react';
export { App } from './App.js';
export { ResumeDialog } from './dialogs/ConfirmDialog.js';
export { OpeningScreen } from './OpeningScreen.js';
