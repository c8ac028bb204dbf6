// Keys that come faster than Ink reads them (key repeat, a busy event loop, tmux send-keys) reach the App as one
// text: outside the goal box each must still act, as if pressed one by one (a hostile review found `45` did nothing).
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp, waitFor } from './ui-helpers.js';

afterEach(() => cleanup());

describe('keys read together', () => {
  it('"45" in one read opens the Log tab, then the Status tab', async () => {
    const r = await renderApp({ phase: 'REVIEW', iteration: 1 });
    await r.press('45');
    await waitFor(() => expect(r.frame()).toMatch(/\[5:Status\]/));
  });

  it('"xxx" in one read toggles a command three times, as three presses do', async () => {
    const r = await renderApp({ phase: 'EXECUTE' });
    r.engine.emit({
      type: 'agent_event',
      role: 'planner',
      event: { type: 'command', id: 'c1', command: 'npm test', status: 'completed', exitCode: 0, output: '# pass 2' },
    });
    await waitFor(() => expect(r.frame()).toContain('npm test'));
    await r.press('x');
    await waitFor(() => expect(r.frame()).toContain('# pass 2'));
    await r.press('xxx');
    await waitFor(() => expect(r.frame()).not.toContain('# pass 2'));
  });
});
