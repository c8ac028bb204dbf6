// Issue 20, defect 13: the test-command answer stood alone ("planner / none") without its question; "after 1
// rounds"; a question switched AUTO to MANUAL without a word; the unclear-verdict dialog had no "treat as
// approved"; the tab bar left a blank row under itself below 80 columns.
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { transition } from '../../../src/core/transition.js';
import { App } from '../../../src/ui/App.js';
import { toArray } from '../../../src/ui/entry-list.js';
import { initialView, reduceAll } from '../../../src/ui/view-model.js';
import { OPTS, running, stateIn } from '../../helpers/states.js';
import { renderSized } from './sized-terminal.js';
import { FakeEngine, fakeFiles, renderApp, sleep, waitFor } from './ui-helpers.js';

afterEach(() => cleanup());

// eslint-disable-next-line no-control-regex
const plain = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '');
const texts = (v: ReturnType<typeof initialView>): string[] => toArray(v.entries).map((e) => e.text);

describe('what the conversation says', () => {
  it('the question for a test command comes before the planner’s answer', () => {
    let v = initialView(running('EXECUTE', { kind: 'execute_step', step: 2 }), { now: 0 });
    v = reduceAll(v, [{ type: 'state', state: running('EXECUTE', { kind: 'ask_test_command', step: 2 }) }], 1);
    v = reduceAll(v, [{ type: 'agent_event', role: 'planner', event: { type: 'text', text: 'Command: none' } }], 2);
    const all = texts(v);
    const asked = all.findIndex((t) => t.includes('asks the planner which command tests step 2'));
    const answer = all.findIndex((t) => t.includes('Command: none'));
    expect(asked).toBeGreaterThanOrEqual(0);
    expect(answer).toBeGreaterThan(asked);
  });

  it('a question that turns auto mode off says so; a pause does not', () => {
    const external = {
      kind: 'external_change',
      file: 'plan',
      role: 'planner',
      action: { kind: 'respond' },
      text: 'x',
    } as const;
    const auto = running('RESPOND', { kind: 'respond' }, { mode: 'auto' });
    const asked = reduceAll(initialView(auto, { now: 0 }), [
      { type: 'state', state: stateIn('RESPOND', { mode: 'manual', awaiting: external }) },
    ]);
    expect(asked.flash?.text).toMatch(/^Auto mode is off/);
    expect(texts(asked).some((t) => t.startsWith('Auto mode is off'))).toBe(true);
    const paused = reduceAll(initialView(auto, { now: 0 }), [
      {
        type: 'state',
        state: stateIn('REVIEW', { mode: 'manual', awaiting: { kind: 'go', action: { kind: 'review' } } }),
      },
    ]);
    expect(texts(paused).some((t) => t.startsWith('Auto mode is off'))).toBe(false);
  });
});

describe('the unclear-verdict dialog', () => {
  const UNCLEAR = {
    phase: 'REVIEW',
    iteration: 1,
    awaiting: { kind: 'unclear_verdict', text: 'Looks fine to me overall.', action: { kind: 'review', reask: true } },
  } as const;

  it('offers "treat it as APPROVED" (a), confirmed with y', async () => {
    const r = await renderApp(UNCLEAR);
    expect(r.frame()).toContain('a: treat it as APPROVED');
    await r.press('a');
    await waitFor(() => expect(r.frame()).toContain('Treat the reviewer’s unreadable answer as APPROVED? [y/N]'));
    expect(r.engine.sent).toEqual([]);
    await r.press('y');
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'decide', on: 'unclear_verdict', choice: 'approved' }]));
  });

  it('approved, the plan is approved with the reviewer’s answer as its comments', () => {
    const s = stateIn('REVIEW', { iteration: 1, awaiting: UNCLEAR.awaiting });
    const r = transition(s, { type: 'decide', on: 'unclear_verdict', choice: 'approved' }, OPTS);
    expect(r.state.lastVerdict).toBe('APPROVED');
    expect(r.effects).toContainEqual(
      expect.objectContaining({
        type: 'write_comments',
        verdict: 'APPROVED',
        text: expect.stringContaining('Looks fine'),
      }),
    );
  });
});

describe('words and rows', () => {
  it('"after 1 round", not "after 1 rounds"', async () => {
    const r = await renderApp({ phase: 'REVIEW', iteration: 1, awaiting: { kind: 'arbitration', iteration: 1 } });
    expect(r.frame()).toContain('after 1 round. What now?');
  });

  it.each([79, 70, 60, 50])('at %i columns the tab bar is one row, the window right under it', async (columns) => {
    const engine = new FakeEngine(stateIn('REVIEW', { awaiting: { kind: 'go', action: { kind: 'review' } } }));
    const r = await renderSized(<App engine={engine} files={fakeFiles()} tickMs={0} />, columns, 20);
    try {
      await sleep(30);
      const rows = plain(r.frame()).split('\n');
      expect(rows[0]).toMatch(/\[1:C[^\]]*\]/);
      expect(rows[0]).toMatch(/6:C/);
      expect(rows[1]).toContain('Nothing yet.');
    } finally {
      r.unmount();
    }
  });
});
