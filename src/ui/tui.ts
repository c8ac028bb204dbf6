// Everything the TUI needs from Ink and React, in one module: the entry of the TUI's own bundle (dist/tui/tui.js).
// Ink and React stay out of the main bundle (Ink's dependencies use top-level await, which only ES modules have),
// and one bundle for all of them keeps one React for Ink's renderer and agent-collab's components.
export { render } from 'ink';
export { default as React } from 'react';
export { App } from './App.js';
export { ResumeDialog } from './dialogs/ConfirmDialog.js';
