import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFiles, KEY, renderApp, sleep, waitFor } from './ui-helpers.js';

afterEach(() => cleanup());

const GO = { kind: 'go', action: { kind: 'review' } } as const;

describe('keys', () => {
  it('Enter dispatches go when a go is awaited', async () => {
    const r = await renderApp({ phase: 'REVIEW', awaiting: GO });
    expect(r.frame()).toContain('Next: reviewer — reviewing the plan (round 1)');
    await r.press(KEY.enter);
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'go' }]));
  });

  it('Enter does nothing while an agent round runs', async () => {
    const r = await renderApp({ phase: 'REVIEW', inflight: { kind: 'review' } });
    await r.press(KEY.enter);
    await sleep(30);
    expect(r.engine.sent).toEqual([]);
  });

  it('Enter retries after a failure', async () => {
    const r = await renderApp({
      phase: 'REVIEW',
      awaiting: {
        kind: 'failure',
        role: 'reviewer',
        failure: 'timeout',
        message: 'no output for 300 s',
        action: { kind: 'review' },
      },
    });
    expect(r.frame()).toContain('reviewer failed (timeout): no output for 300 s');
    await r.press(KEY.enter);
    await waitFor(() => expect(r.engine.types()).toEqual(['go']));
  });

  it('with confirm_enter, Enter asks first and y lets the round through', async () => {
    const r = await renderApp({ phase: 'REVIEW', awaiting: GO }, { confirmEnter: true });
    await r.press(KEY.enter);
    await waitFor(() =>
      expect(r.frame()).toContain('Let the next round through (reviewer: reviewing the plan (round 1))? [y/N]'),
    );
    expect(r.engine.sent).toEqual([]);
    await r.press('y');
    await waitFor(() => expect(r.engine.types()).toEqual(['go']));
    await waitFor(() => expect(r.frame()).not.toContain('[y/N]'));
  });

  it('a switches to auto mode', async () => {
    const r = await renderApp({ phase: 'REVIEW', awaiting: GO });
    await r.press('a');
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'set_mode', mode: 'auto' }]));
  });

  it('p pauses auto mode, and the status bar says PAUSING until the round ends', async () => {
    const r = await renderApp({ phase: 'REVIEW', mode: 'auto', inflight: { kind: 'review' } });
    expect(r.frame()).toContain('AUTO');
    expect(r.frame()).toContain('p pause');
    await r.press('p');
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'pause' }]));
    r.engine.set({ pauseRequested: true });
    await waitFor(() => expect(r.frame()).toContain('PAUSING'));
    r.engine.set({
      mode: 'manual',
      pauseRequested: false,
      inflight: null,
      phase: 'RESPOND',
      awaiting: { kind: 'go', action: { kind: 'respond' } },
    });
    await waitFor(() => expect(r.frame()).toContain('PAUSED'));
  });

  it('s asks for confirmation, then stops', async () => {
    const r = await renderApp({ phase: 'REVIEW', inflight: { kind: 'review' } });
    await r.press('s');
    await waitFor(() => expect(r.frame()).toContain('Stop this phase and go back to goal refinement? [y/N]'));
    expect(r.engine.sent).toEqual([]);
    await r.press('y');
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'stop' }]));
  });

  it('s then n (or Enter) keeps the run going', async () => {
    const r = await renderApp({ phase: 'REVIEW', inflight: { kind: 'review' } });
    await r.press('s', 'n');
    await waitFor(() => expect(r.frame()).not.toContain('[y/N]'));
    await r.press('s', KEY.enter);
    await waitFor(() => expect(r.frame()).not.toContain('[y/N]'));
    expect(r.engine.sent).toEqual([]);
  });

  it('? shows the help from the keymap; Esc closes it', async () => {
    const r = await renderApp({ phase: 'REVIEW', awaiting: GO });
    await r.press('?');
    await waitFor(() => expect(r.frame()).toContain('Pause auto mode at the next safe point'));
    expect(r.frame()).toContain('Show this help');
    await r.press(KEY.esc);
    await waitFor(() => expect(r.frame()).not.toContain('Show this help'));
  });

  it('the help owns the keyboard: Enter closes it instead of letting a round through', async () => {
    const r = await renderApp({ phase: 'REVIEW', awaiting: GO });
    await r.press('?', KEY.enter);
    await waitFor(() => expect(r.frame()).not.toContain('Show this help'));
    expect(r.engine.sent).toEqual([]);
  });

  it('Ctrl+C quits; a second Ctrl+C within 2 s forces', async () => {
    let t = 10_000;
    const onQuit = vi.fn();
    const r = await renderApp({ phase: 'REVIEW', inflight: { kind: 'review' } }, { onQuit, now: () => t });
    await r.press(KEY.ctrlC);
    await waitFor(() => expect(onQuit).toHaveBeenCalledWith(false));
    expect(r.frame()).toContain('Ctrl+C again to force');
    t += 1500;
    await r.press(KEY.ctrlC);
    await waitFor(() => expect(onQuit).toHaveBeenLastCalledWith(true));
  });

  it('Ctrl+C more than 2 s later is a normal quit again', async () => {
    let t = 10_000;
    const onQuit = vi.fn();
    const r = await renderApp({ phase: 'REVIEW' }, { onQuit, now: () => t });
    await r.press(KEY.ctrlC);
    t += 2500;
    await r.press(KEY.ctrlC);
    await waitFor(() => expect(onQuit.mock.calls).toEqual([[false], [false]]));
  });

  it('Ctrl+C works while a dialog has the keyboard', async () => {
    const onQuit = vi.fn();
    const r = await renderApp(
      { phase: 'REVIEW', iteration: 5, awaiting: { kind: 'arbitration', iteration: 5 } },
      { onQuit },
    );
    await r.press(KEY.ctrlC);
    await waitFor(() => expect(onQuit).toHaveBeenCalledWith(false));
    expect(r.engine.sent).toEqual([]);
  });

  it('e opens plan.md from the Plan tab and comments.md from the Comments tab, then reloads', async () => {
    const files = fakeFiles({ plan: '# Plan v1' });
    const onEdit = vi.fn(() => {
      files.texts.plan = '# Plan v2';
      return Promise.resolve();
    });
    const r = await renderApp({ phase: 'REVIEW' }, { onEdit, files });
    await r.press('e');
    await sleep(20);
    expect(onEdit).not.toHaveBeenCalled(); // not on the Conversation tab
    await r.press('2');
    await waitFor(() => expect(r.frame()).toContain('# Plan v1'));
    await r.press('e');
    await waitFor(() => expect(r.frame()).toContain('# Plan v2'));
    await r.press('3', 'e');
    await waitFor(() => expect(onEdit.mock.calls).toEqual([['plan'], ['comments']]));
  });

  it('q leaves once the run is finished', async () => {
    const onQuit = vi.fn();
    const r = await renderApp({ phase: 'REVIEW', inflight: { kind: 'review' } }, { onQuit });
    await r.press('q');
    await sleep(20);
    expect(onQuit).not.toHaveBeenCalled();
    r.engine.set({ phase: 'DONE', inflight: null });
    r.engine.emit({ type: 'finished', phase: 'DONE' });
    await waitFor(() => expect(r.frame()).toContain('Run finished'));
    await r.press('q');
    await waitFor(() => expect(onQuit).toHaveBeenCalledWith(false));
  });

  it('keys typed faster than the screen renders are handled in order (s y → stop; ↓ ↓ Enter in a dialog)', async () => {
    const r = await renderApp({ phase: 'REVIEW', inflight: { kind: 'review' } });
    r.stdin.write('s');
    r.stdin.write('y');
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'stop' }]));
    const r2 = await renderApp({ phase: 'REVIEW', iteration: 5, awaiting: { kind: 'arbitration', iteration: 5 } });
    for (const k of [KEY.down, KEY.down, KEY.enter]) r2.stdin.write(k);
    await waitFor(() => expect(r2.engine.sent).toEqual([{ type: 'decide', on: 'arbitration', choice: 'edit' }]));
  });
});
