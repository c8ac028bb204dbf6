// The TUI's dialogs are derived from the decisions table: each question's choices are on screen with their keys,
// and a choice's key sends that choice as one `decide` event.
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { Choice } from '../../../src/core/decisions.js';
import type { Awaiting, PendingCommand, WorkflowState } from '../../../src/core/types.js';
import { dialogFor, tuiChoices } from '../../../src/ui/decision-keys.js';
import { KEY, renderApp, waitFor } from './ui-helpers.js';

afterEach(() => cleanup());

const DIALOGS: Array<{ w: Awaiting; phase: WorkflowState['phase'] }> = [
  { w: { kind: 'unclear_verdict', text: 'hmm', action: { kind: 'review', reask: true } }, phase: 'REVIEW' },
  {
    w: {
      kind: 'step_failed',
      step: 1,
      attempt: 4,
      category: 'test_failure',
      message: 'npm test failed',
      rolledBack: false,
    },
    phase: 'EXECUTE',
  },
  {
    w: { kind: 'step_failed', step: 1, attempt: 4, category: 'test_failure', message: 'rolled back', rolledBack: true },
    phase: 'EXECUTE',
  },
  {
    w: {
      kind: 'secret_found',
      step: 1,
      summary: 'add config',
      findings: [{ file: '.env', line: 1, kind: '.env file' }],
    },
    phase: 'EXECUTE',
  },
  { w: { kind: 'commit_failed', step: 1, summary: 'add config', message: 'hook failed' }, phase: 'EXECUTE' },
  {
    w: { kind: 'forbidden_change', step: 1, attempt: 1, changes: ["branch 'sneaky' created"], undone: [] },
    phase: 'EXECUTE',
  },
  {
    w: { kind: 'external_change', file: 'plan', role: 'planner', action: { kind: 'respond' }, text: '# plan' },
    phase: 'RESPOND',
  },
  {
    w: { kind: 'budget', budget: 'tokens', spent: 51_000, cap: 50_000, action: { kind: 'review' } },
    phase: 'REVIEW',
  },
];

const held = (decision: 'confirm' | 'block'): PendingCommand => ({
  id: 'cmd-1',
  role: 'planner',
  command: 'git push',
  decision,
  rule: 'r',
  reason: 'why',
});

/** The key a test presses for a choice: its first, as the terminal sends it. */
const press = (c: Choice): string => ({ Enter: KEY.enter, Esc: KEY.esc })[c.keys[0] ?? ''] ?? c.keys[0] ?? '';
/** The frame's text without colours and borders, wrapped lines joined. */
const plain = (frame: string): string =>
  frame
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;]*m/g, '')
    .replace(/[│║]/g, ' ')
    .replace(/\s+/g, ' ');

describe('dialogs follow the decisions table', () => {
  it.each(
    DIALOGS.map(
      (d) => [`${d.w.kind}${d.w.kind === 'step_failed' && d.w.rolledBack ? ' (rolled back)' : ''}`, d] as const,
    ),
  )('%s: every choice is listed with its keys, and each key sends that choice', async (_name, { w, phase }) => {
    expect(dialogFor(w)).toBe(w.kind);
    for (const c of tuiChoices(w)) {
      const r = await renderApp({ phase, awaiting: w });
      expect(plain(r.frame())).toContain(`${c.keys.join('/')}: ${c.label}`);
      await r.press(press(c));
      if (c.confirm) await r.press('y');
      await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'decide', on: w.kind, choice: c.id }]));
      cleanup();
    }
  });

  it.each([['confirm'], ['block']] as const)(
    'a held command (%s): every choice is listed, each key sends it with the command id',
    async (decision) => {
      for (const c of tuiChoices(held(decision))) {
        const r = await renderApp({
          phase: 'EXECUTE',
          inflight: { kind: 'execute_step', step: 1 },
          pendingCommand: held(decision),
        });
        expect(plain(r.frame())).toContain(`${c.keys.join('/')}: ${c.label}`);
        await r.press(press(c));
        if (c.confirm) await r.press('y');
        await waitFor(() =>
          expect(r.engine.sent).toEqual([{ type: 'decide', on: 'command', id: 'cmd-1', choice: c.id }]),
        );
        cleanup();
      }
    },
  );

  it('the arbitration menu lists the table’s choices in order, numbered by their keys', async () => {
    const r = await renderApp({ phase: 'REVIEW', iteration: 5, awaiting: { kind: 'arbitration', iteration: 5 } });
    for (const c of tuiChoices({ kind: 'arbitration', iteration: 5 }))
      expect(r.frame()).toContain(`${c.keys[0]}. ${c.label}`);
  });

  it('a failure shows the table’s retry key in its banner; a go and the goal open no dialog', async () => {
    const failure: Awaiting = {
      kind: 'failure',
      role: 'planner',
      failure: 'infra',
      message: 'HTTP 500',
      action: { kind: 'write_plan' },
    };
    const r = await renderApp({ phase: 'WRITE_PLAN', awaiting: failure });
    const [retry] = tuiChoices(failure);
    expect(r.frame()).toContain(`${retry!.keys.join('/')}: ${retry!.label}`);
    expect(dialogFor(failure)).toBeNull();
    expect(dialogFor({ kind: 'go', action: { kind: 'review' } })).toBeNull();
    expect(dialogFor({ kind: 'goal' })).toBeNull();
  });
});
