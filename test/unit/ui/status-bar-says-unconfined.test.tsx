// `[safety] sandbox = "off"`: the status bar says UNCONFINED for the whole run, and the start notice is shown.
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp, waitFor } from './ui-helpers.js';

afterEach(() => cleanup());

describe('status bar and confinement', () => {
  it('sandbox off: UNCONFINED in the status bar, and the warning as the start notice', async () => {
    const r = await renderApp({ phase: 'REVIEW' }, { sandboxOff: true, notice: 'warning: confinement is off' });
    await waitFor(() => expect(r.frame()).toMatch(/REVIEW .*UNCONFINED/));
    await waitFor(() => expect(r.frame()).toContain('warning: confinement is off'));
  });

  it('sandbox on: no such word', async () => {
    const r = await renderApp({ phase: 'REVIEW' });
    await waitFor(() => expect(r.frame()).toMatch(/REVIEW/));
    expect(r.frame()).not.toContain('UNCONFINED');
  });
});
