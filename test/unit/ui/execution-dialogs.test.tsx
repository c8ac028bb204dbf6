// The dialogs of step execution: a held command, a failing step, a forbidden change, a possible secret, a failed
// commit, an external change. Each owns the keyboard, lists its keys (from keymap.ts) and sends one choice.
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { Awaiting, PendingCommand } from '../../../src/core/types.js';
import { KEY, renderApp, sleep, waitFor } from './ui-helpers.js';

afterEach(() => cleanup());

const LONG = `npm run build && node scripts/migrate.js --database postgres://localhost/app --dry-run=false --verbose --tables ${Array.from({ length: 12 }, (_, i) => `table_${i}`).join(',')} --final-flag-at-the-very-end`;

const held = (decision: 'confirm' | 'block', command = LONG): PendingCommand => ({
  id: 'cmd-7',
  role: 'planner',
  command,
  decision,
  rule: decision === 'block' ? 'rm-rf' : 'network',
  reason: decision === 'block' ? 'deletes files recursively' : 'reaches the network',
});
const executing = (pendingCommand: PendingCommand) => ({
  phase: 'EXECUTE' as const,
  inflight: { kind: 'execute_step' as const, step: 1 },
  pendingCommand,
});
// eslint-disable-next-line no-control-regex
const plain = (frame: string): string => frame.replace(/\u001b\[[0-9;]*m/g, '');
/** The frame's text without borders and whitespace: a wrapped command reads as one. */
const squashed = (frame: string): string => plain(frame).replace(/[│║\s]/g, '');

describe('command confirmation', () => {
  it('shows the whole command wrapped (never cut), who asks, the rule and the reason', async () => {
    const r = await renderApp(executing(held('confirm')));
    const f = r.frame();
    expect(f).toContain('The planner wants to run a command');
    expect(f).toContain('rule network: reaches the network');
    expect(squashed(f)).toContain(LONG.replace(/\s/g, ''));
    expect(f.split('\n').filter((l) => l.includes('table_')).length).toBeGreaterThan(1); // wrapped, not cut
    expect(f).not.toContain('…');
    expect(f).toContain('y allow once · a allow this command for the rest of the run · n/Esc/Enter deny');
  });

  it('y allows once', async () => {
    const r = await renderApp(executing(held('confirm')));
    await r.press('y');
    await waitFor(() =>
      expect(r.engine.sent).toEqual([{ type: 'decide', on: 'command', id: 'cmd-7', choice: 'allow-once' }]),
    );
    await waitFor(() => expect(r.frame()).not.toContain('wants to run a command'));
  });

  it('a allows the command for the rest of the run', async () => {
    const r = await renderApp(executing(held('confirm')));
    await r.press('a');
    await waitFor(() =>
      expect(r.engine.sent).toEqual([{ type: 'decide', on: 'command', id: 'cmd-7', choice: 'allow-run' }]),
    );
  });

  it.each([
    ['n', 'n'],
    ['Esc', KEY.esc],
    ['Enter', KEY.enter],
  ])('%s denies', async (_name, key) => {
    const r = await renderApp(executing(held('confirm')));
    await r.press(key);
    await waitFor(() =>
      expect(r.engine.sent).toEqual([{ type: 'decide', on: 'command', id: 'cmd-7', choice: 'deny' }]),
    );
  });

  it('a blocked command: Enter denies; "run it anyway" needs ! and then y', async () => {
    const r = await renderApp(executing(held('block', 'rm -rf build')));
    expect(r.frame()).toContain('wants to run a command the policy blocks');
    expect(r.frame()).toContain('rule rm-rf: deletes files recursively');
    await r.press('y', 'a'); // the confirm dialog's keys mean nothing here
    await sleep(20);
    expect(r.engine.sent).toEqual([]);
    await r.press('!');
    await waitFor(() => expect(r.frame()).toContain('Run a command the policy blocks? [y/N]'));
    await r.press('x'); // any other key goes back
    await waitFor(() => expect(r.frame()).not.toContain('[y/N]'));
    expect(r.engine.sent).toEqual([]);
    await r.press('!', 'y');
    await waitFor(() =>
      expect(r.engine.sent).toEqual([{ type: 'decide', on: 'command', id: 'cmd-7', choice: 'allow-once' }]),
    );
  });

  it('a blocked command: Enter denies', async () => {
    const r = await renderApp(executing(held('block', 'rm -rf build')));
    await r.press(KEY.enter);
    await waitFor(() =>
      expect(r.engine.sent).toEqual([{ type: 'decide', on: 'command', id: 'cmd-7', choice: 'deny' }]),
    );
  });

  it('owns the keyboard while open: s, p, ? do nothing; the status bar shows its keys', async () => {
    const r = await renderApp({ ...executing(held('confirm')), mode: 'auto' });
    await r.press('s', 'p', '?', '2');
    await sleep(30);
    expect(r.engine.sent).toEqual([]);
    expect(r.frame()).not.toContain('Show this help');
    expect(r.frame()).not.toContain('p pause');
  });

  it('comes back if the engine rejects the answer', async () => {
    const r = await renderApp(executing(held('confirm')));
    r.engine.accept = false;
    await r.press('y');
    await waitFor(() => expect(r.engine.sent).toHaveLength(1));
    await waitFor(() => expect(r.frame()).toContain('wants to run a command'));
  });
});

const stepFailed = (rolledBack: boolean): Awaiting => ({
  kind: 'step_failed',
  step: 2,
  attempt: 3,
  category: 'test_failure',
  rolledBack,
  message: [...Array.from({ length: 30 }, (_, i) => `ok ${i}`), 'not ok 31 - greets in French', '# fail 1'].join('\n'),
});

describe('a step that still fails', () => {
  it('shows the category and the tail of the test output; r k b s', async () => {
    const r = await renderApp({ phase: 'EXECUTE', awaiting: stepFailed(false) });
    const f = r.frame();
    expect(f).toContain('Step 2 still fails after attempt 3 (test failure)');
    expect(f).toContain('category: test_failure');
    expect(f).toContain('not ok 31 - greets in French');
    expect(f).toContain('# fail 1');
    expect(f).toContain('earlier line(s))');
    expect(f).not.toContain('ok 0\n');
    expect(f).toContain('b: roll back');
    for (const [key, choice] of [
      ['r', 'retry'],
      ['k', 'skip'],
      ['b', 'rollback'],
      ['s', 'stop'],
    ] as const) {
      const one = await renderApp({ phase: 'EXECUTE', awaiting: stepFailed(false) });
      await one.press(key);
      await waitFor(() => expect(one.engine.sent).toEqual([{ type: 'decide', on: 'step_failed', choice }]));
    }
  });

  it('after a rollback: only retry, skip or stop', async () => {
    const r = await renderApp({ phase: 'EXECUTE', awaiting: stepFailed(true) });
    expect(r.frame()).toContain('Step 2 was rolled back. What next?');
    expect(r.frame()).not.toContain('roll back');
    await r.press('b');
    await sleep(20);
    expect(r.engine.sent).toEqual([]);
    await r.press('k');
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'decide', on: 'step_failed', choice: 'skip' }]));
  });
});

describe('a possible secret', () => {
  const secret: Awaiting = {
    kind: 'secret_found',
    step: 1,
    summary: 'add config',
    findings: [
      { file: 'config/.env', line: 1, kind: '.env file' },
      { file: 'src/keys.ts', line: 12, kind: 'AWS access key' },
    ],
  };

  it('lists the findings; c then y commits anyway; c then another key does not', async () => {
    const r = await renderApp({ phase: 'EXECUTE', awaiting: secret });
    expect(r.frame()).toContain('config/.env:1 — .env file');
    expect(r.frame()).toContain('src/keys.ts:12 — AWS access key');
    await r.press('c');
    await waitFor(() => expect(r.frame()).toContain('Commit although it may contain a secret? [y/N]'));
    await r.press(KEY.enter);
    await waitFor(() => expect(r.frame()).not.toContain('[y/N]'));
    expect(r.engine.sent).toEqual([]);
    await r.press('c', 'y');
    await waitFor(() =>
      expect(r.engine.sent).toEqual([{ type: 'decide', on: 'secret_found', choice: 'commit-anyway' }]),
    );
  });

  it.each([
    ['r', 'retry'],
    ['l', 'leave'],
    ['s', 'stop'],
  ] as const)('%s → %s', async (key, choice) => {
    const r = await renderApp({ phase: 'EXECUTE', awaiting: secret });
    await r.press(key);
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'decide', on: 'secret_found', choice }]));
  });
});

describe('a failed commit', () => {
  it.each([
    ['r', 'retry'],
    ['c', 'continue'],
    ['s', 'stop'],
  ] as const)('%s → %s', async (key, choice) => {
    const r = await renderApp({
      phase: 'EXECUTE',
      awaiting: { kind: 'commit_failed', step: 3, summary: 'add docs', message: 'pre-commit hook failed: lint errors' },
    });
    expect(r.frame()).toContain('The commit of step 3 failed');
    expect(r.frame()).toContain('pre-commit hook failed: lint errors');
    await r.press(key);
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'decide', on: 'commit_failed', choice }]));
  });
});

describe('an external change', () => {
  it.each([
    ['o', 'overwrite'],
    ['m', 'merge'],
    ['d', 'discard'],
  ] as const)('%s → %s', async (key, choice) => {
    const r = await renderApp({
      phase: 'RESPOND',
      awaiting: {
        kind: 'external_change',
        file: 'plan',
        role: 'planner',
        action: { kind: 'respond' },
        text: '# new plan',
      },
    });
    expect(r.frame()).toContain('plan.md changed outside agent-collab while the planner wrote a new version');
    expect(r.frame()).toContain('o overwrite: use the agent’s version');
    await r.press(key);
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'decide', on: 'external_change', choice }]));
  });
});

describe('the agent changed what it must not', () => {
  it('lists what changed and what agent-collab undid, says nothing was committed, and r retries', async () => {
    const awaiting: Awaiting = {
      kind: 'forbidden_change',
      step: 2,
      attempt: 1,
      changes: ['HEAD moved from aaaaaaa to bbbbbbb', "branch 'sneaky' created"],
      undone: ["branch 'sneaky' deleted (it was at bbbbbbb)"],
    };
    const r = await renderApp({ phase: 'EXECUTE', awaiting });
    const f = squashed(r.frame());
    expect(f).toContain('Step2:theagentchangedwhatitmustnot;nothingwascommitted');
    expect(f).toContain('•HEADmovedfromaaaaaaatobbbbbbb');
    expect(f).toContain("•branch'sneaky'created");
    expect(f).toContain("undone:branch'sneaky'deleted(itwasatbbbbbbb)");
    await r.press('r');
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'decide', on: 'forbidden_change', choice: 'retry' }]));
  });
});
