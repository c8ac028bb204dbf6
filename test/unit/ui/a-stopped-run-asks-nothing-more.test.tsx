// An error with an exit code ends the run (issue 18, item 11: `.agent-collab/` changed behind its back): the TUI
// then shows the message whole, opens no dialog, sends the engine nothing more, and q leaves.
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KEY, renderApp, waitFor } from './ui-helpers.js';

afterEach(() => cleanup());

const MESSAGE =
  '.agent-collab/ was deleted during the run; agent-collab wrote back its state.json, plan.md; the run stopped: check .agent-collab/, then rerun with --resume (or --fresh)';
const GO = { kind: 'go', action: { kind: 'review' } } as const;

describe('a run stopped by an error with an exit code', () => {
  it('shows the whole message and the exit code; Enter, a, s and a later question send nothing; q leaves', async () => {
    const onQuit = vi.fn();
    const onAttention = vi.fn();
    const r = await renderApp({ phase: 'REVIEW', mode: 'manual', awaiting: GO }, { onQuit, onAttention });
    await waitFor(() => expect(r.frame()).toContain('Enter next round'));
    r.engine.emit({ type: 'error', message: MESSAGE, exitCode: 3 });
    await waitFor(() => expect(r.frame()).toContain('The run stopped; no agent runs any more.'));
    expect(r.frame().replace(/[│\s]+/g, ' ')).toContain(MESSAGE); // wrapped inside its box
    expect(r.frame()).toContain('q: leave (exit code 3)');
    await waitFor(() => expect(onAttention).toHaveBeenCalledWith('the run stopped')); // the bell: nobody may be watching

    await r.press(KEY.enter, 'a', 's', 'p', KEY.ctrlG);
    // A state published after the stop (e.g. by the save of an event already queued) opens no question either.
    r.engine.set({ awaiting: { kind: 'arbitration', iteration: 5 } });
    await r.press('1', KEY.enter);
    expect(r.frame()).not.toContain('still asks for changes');
    expect(r.engine.sent).toEqual([]);

    await r.press('q');
    expect(onQuit).toHaveBeenCalledWith(false);
  });

  it('an error without an exit code is only shown: the run goes on', async () => {
    const r = await renderApp({ phase: 'REVIEW', mode: 'manual', awaiting: GO });
    r.engine.emit({ type: 'error', message: 'could not archive the run: disk full' });
    await waitFor(() => expect(r.frame()).toContain('could not archive the run: disk full'));
    expect(r.frame()).not.toContain('The run stopped');
    await r.press(KEY.enter);
    await waitFor(() => expect(r.engine.types()).toEqual(['go']));
  });
});
