// Issue 20, defect 3: in the arbitration and external-change dialogs PgUp, Tab and digits did nothing, so the plan
// and the comments could not be read before choosing. A dialog now keeps only the keys it declares (its choices,
// from the decisions table); the others switch tabs and scroll, and nothing else reaches the run.
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeFiles, KEY, renderApp, sleep, waitFor } from './ui-helpers.js';

afterEach(() => cleanup());

const PLAN = ['# Plan', '', ...Array.from({ length: 80 }, (_, i) => `plan line ${i + 1}`)].join('\n');
const COMMENTS = '## Comments\n1. The reviewer wants a smaller step 2.';
const files = () => fakeFiles({ plan: PLAN, comments: COMMENTS });

const EXTERNAL = {
  phase: 'RESPOND',
  iteration: 1,
  awaiting: {
    kind: 'external_change',
    file: 'plan',
    role: 'planner',
    action: { kind: 'respond' },
    text: 'the planner’s version',
  },
} as const;
const ARBITRATION = { phase: 'REVIEW', iteration: 5, awaiting: { kind: 'arbitration', iteration: 5 } } as const;

describe('a dialog open: the tabs can still be read', () => {
  it('external change: 2 shows the plan, PgDn scrolls it, Tab goes on to the comments; o still decides', async () => {
    const r = await renderApp(EXTERNAL, { files: files() });
    const title = 'plan.md changed outside agent-collab';
    expect(r.frame()).toContain(title);
    await r.press('2');
    await waitFor(() => expect(r.frame()).toContain('[2:Plan]'));
    await waitFor(() => expect(r.frame()).toContain('plan line 1\n'));
    expect(r.frame()).toContain(title); // the dialog stays open
    await r.press(KEY.pageDown);
    await waitFor(() => expect(r.frame()).not.toContain('plan line 1\n'));
    expect(r.frame()).toMatch(/plan line [2-9]\d/);
    await r.press(KEY.tab);
    await waitFor(() => expect(r.frame()).toContain('[3:Comments]'));
    await waitFor(() => expect(r.frame()).toContain('The reviewer wants a smaller step 2.'));
    expect(r.frame()).toContain(title);
    expect(r.engine.sent).toEqual([]); // reading sends nothing
    await r.press('o');
    await waitFor(() =>
      expect(r.engine.sent).toEqual([{ type: 'decide', on: 'external_change', choice: 'overwrite' }]),
    );
  });

  it('arbitration: Tab and PgDn move the view; its own digits still pick a choice', async () => {
    const r = await renderApp(ARBITRATION, { files: files() });
    await r.press(KEY.tab);
    await waitFor(() => expect(r.frame()).toContain('[2:Plan]'));
    await waitFor(() => expect(r.frame()).toContain('plan line 1\n'));
    await r.press(KEY.pageDown);
    await waitFor(() => expect(r.frame()).not.toContain('plan line 1\n'));
    expect(r.frame()).toContain('still asks for changes after 5 rounds');
    // 2 is the dialog's ("Continue for N more rounds"), not the Plan tab's.
    await r.press('2');
    await waitFor(() => expect(r.frame()).toContain('More rounds:'));
    await r.press('3', KEY.enter);
    await waitFor(() =>
      expect(r.engine.sent).toEqual([{ type: 'decide', on: 'arbitration', choice: 'continue', rounds: 3 }]),
    );
  });

  it('keys that act on the run (a, s, Enter outside a choice) do nothing while a dialog asks', async () => {
    const r = await renderApp(EXTERNAL, { files: files() });
    await r.press('a', 's', 'p', 'x', KEY.enter);
    await sleep(50);
    expect(r.engine.sent).toEqual([]);
    expect(r.frame()).toContain('plan.md changed outside agent-collab');
    expect(r.frame()).not.toContain('Stop this phase');
  });
});
