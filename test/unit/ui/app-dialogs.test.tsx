import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ResumeDialog } from '../../../src/ui/dialogs/ConfirmDialog.js';
import { KEY, listening, renderApp, sleep, waitFor } from './ui-helpers.js';

afterEach(() => cleanup());

const ARBITRATION = { phase: 'REVIEW', iteration: 5, awaiting: { kind: 'arbitration', iteration: 5 } } as const;

const CODE_CAP = { phase: 'CODE_REVIEW', awaiting: { kind: 'code_review_cap', round: 3, step: null } } as const;

describe('code review cap dialog', () => {
  it('lists the table’s four choices; 1 accepts the code, 2 asks for the number of more rounds', async () => {
    const r = await renderApp(CODE_CAP);
    expect(r.frame()).toContain('The code review still asks for changes after 3 round(s)');
    for (const label of [
      '1. Accept the code as it is',
      '2. Continue for N more rounds',
      '3. Edit the code by hand',
      '4. Stop',
    ])
      expect(r.frame()).toContain(label);
    await r.press('1');
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'decide', on: 'code_review_cap', choice: 'accept' }]));
    cleanup();
    const r2 = await renderApp(CODE_CAP);
    await r2.press('2', KEY.backspace, '2', KEY.enter);
    await waitFor(() =>
      expect(r2.engine.sent).toEqual([{ type: 'decide', on: 'code_review_cap', choice: 'continue', rounds: 2 }]),
    );
  });

  it('after "edit", Enter sends the edited code to review', async () => {
    const r = await renderApp({ phase: 'CODE_REVIEW', awaiting: { kind: 'code_edit', step: null } });
    expect(r.frame()).toContain('Edit the code by hand');
    await r.press(KEY.enter);
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'decide', on: 'code_edit', choice: 'edited' }]));
  });
});

describe('arbitration dialog', () => {
  it('opens at the iteration cap with the four choices', async () => {
    const r = await renderApp(ARBITRATION);
    const f = r.frame();
    expect(f).toContain('still asks for changes after 5 rounds');
    for (const label of [
      '1. Force approve the plan',
      '2. Continue for N more rounds',
      '3. Edit plan.md by hand',
      '4. Cancel the run',
    ])
      expect(f).toContain(label);
  });

  it('1 force-approves once confirmed with y', async () => {
    const r = await renderApp(ARBITRATION);
    await r.press('1');
    await waitFor(() =>
      expect(r.frame()).toContain('Approve the plan although the reviewer still asks for changes? [y/N]'),
    );
    expect(r.engine.sent).toEqual([]);
    await r.press('y');
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'decide', on: 'arbitration', choice: 'approve' }]));
    await waitFor(() => expect(r.frame()).not.toContain('1. Force approve')); // answered: the dialog closes
  });

  it('continue asks for a number of rounds', async () => {
    const r = await renderApp(ARBITRATION);
    await r.press('2');
    await waitFor(() => expect(r.frame()).toContain('More rounds:'));
    await r.press(KEY.backspace, '3', KEY.enter);
    await waitFor(() =>
      expect(r.engine.sent).toEqual([{ type: 'decide', on: 'arbitration', choice: 'continue', rounds: 3 }]),
    );
  });

  it('force approve and cancel ask [y/N] like stop: any key but y goes back and sends nothing', async () => {
    const r = await renderApp(ARBITRATION);
    await r.press('1', 'n', '4', KEY.enter, '1', KEY.esc);
    await sleep(30);
    expect(r.engine.sent).toEqual([]);
    expect(r.frame()).toContain('1. Force approve the plan'); // still the menu
    await r.press('4');
    await waitFor(() => expect(r.frame()).toContain('Cancel the run? It is archived to .agent-collab/history/. [y/N]'));
    await r.press('y');
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'decide', on: 'arbitration', choice: 'cancel' }]));
  });

  it('continue: the typed number replaces the prefilled 2 (1 gives 1, not 21)', async () => {
    const r = await renderApp(ARBITRATION);
    await r.press('2');
    await waitFor(() => expect(r.frame()).toContain('More rounds: 2'));
    await r.press('1');
    await waitFor(() => expect(r.frame()).toContain('More rounds: 1'));
    await r.press('5', KEY.enter);
    await waitFor(() =>
      expect(r.engine.sent).toEqual([{ type: 'decide', on: 'arbitration', choice: 'continue', rounds: 15 }]),
    );
  });

  it('continue: keys faster than a re-render (2, BSpace, 1, Enter) are all taken', async () => {
    const r = await renderApp(ARBITRATION);
    for (const k of ['2', KEY.backspace, '1', KEY.enter]) r.stdin.write(k);
    await waitFor(() =>
      expect(r.engine.sent).toEqual([{ type: 'decide', on: 'arbitration', choice: 'continue', rounds: 1 }]),
    );
  });

  it('continue refuses 0 rounds', async () => {
    const r = await renderApp(ARBITRATION);
    await r.press('2', KEY.backspace, '0', KEY.enter);
    await waitFor(() => expect(r.frame()).toContain('a whole number from 1 to 100'));
    expect(r.engine.sent).toEqual([]);
  });

  it('arrows and Enter pick "edit manually"; ↑ wraps to "cancel"', async () => {
    const r = await renderApp(ARBITRATION);
    await r.press(KEY.down, KEY.down, KEY.enter);
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'decide', on: 'arbitration', choice: 'edit' }]));
    const r2 = await renderApp(ARBITRATION);
    await r2.press(KEY.up, KEY.enter, 'y');
    await waitFor(() => expect(r2.engine.sent).toEqual([{ type: 'decide', on: 'arbitration', choice: 'cancel' }]));
  });

  it('owns the keyboard: global keys do nothing while it is open', async () => {
    const r = await renderApp(ARBITRATION);
    await r.press('s', 'a', '?');
    await sleep(30);
    expect(r.engine.sent).toEqual([]);
    expect(r.frame()).not.toContain('[y/N]');
    expect(r.frame()).not.toContain('Show this help');
  });

  it('comes back if the engine rejects the choice', async () => {
    const r = await renderApp(ARBITRATION);
    r.engine.accept = false;
    await r.press('1', 'y');
    await waitFor(() => expect(r.engine.sent).toHaveLength(1));
    await waitFor(() => expect(r.frame()).toContain('Force approve the plan'));
  });
});

describe('question dialog', () => {
  it('shows the agent’s question and sends the typed answer with Enter', async () => {
    const r = await renderApp({
      phase: 'EXECUTE',
      awaiting: {
        kind: 'question',
        role: 'planner',
        text: 'Should I use yarn or npm?',
        action: { kind: 'execute_step', step: 1 },
      },
    });
    expect(r.frame()).toContain('The planner asks:');
    expect(r.frame()).toContain('Should I use yarn or npm?');
    await r.press(KEY.enter); // empty: nothing sent
    await r.type('npm please');
    await waitFor(() => expect(r.frame()).toContain('answer › npm please'));
    await r.press(KEY.enter);
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'answer', text: 'npm please' }]));
  });
});

describe('other dialogs', () => {
  it('manual edit: e opens plan.md, Enter says the edit is done', async () => {
    const onEdit = vi.fn(() => Promise.resolve());
    const r = await renderApp({ phase: 'REVIEW', awaiting: { kind: 'manual_edit' } }, { onEdit });
    expect(r.frame()).toContain('Edit plan.md by hand');
    await r.press('e');
    await waitFor(() => expect(onEdit).toHaveBeenCalledWith('plan'));
    await r.press(KEY.enter);
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'decide', on: 'manual_edit', choice: 'edited' }]));
  });

  it('unreadable verdict: r asks again, c treats it as changes required', async () => {
    const r = await renderApp({
      phase: 'REVIEW',
      awaiting: { kind: 'unclear_verdict', text: 'hmm', action: { kind: 'review', reask: true } },
    });
    expect(r.frame()).toContain('no readable verdict');
    await r.press('c');
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'decide', on: 'unclear_verdict', choice: 'changes' }]));
  });

  it('resume on start: Enter and y resume', async () => {
    for (const k of ['\r', 'y']) {
      const onAnswer = vi.fn();
      const r = render(<ResumeDialog phase="REVIEW" iteration={2} goal="add a flag" onAnswer={onAnswer} />);
      expect(r.lastFrame()).toContain('Unfinished session found (phase REVIEW, iteration 2). Resume?');
      await listening(r.stdin);
      r.stdin.write(k);
      await waitFor(() => expect(onAnswer).toHaveBeenCalledWith('resume'));
      r.unmount();
    }
  });

  it('resume on start: only a archives; Esc, n and q quit without archiving', async () => {
    const answers: Array<[string, string]> = [
      ['a', 'archive'],
      [KEY.esc, 'quit'],
      ['n', 'quit'],
      ['q', 'quit'],
    ];
    for (const [k, expected] of answers) {
      const onAnswer = vi.fn();
      const r = render(<ResumeDialog phase="REVIEW" iteration={2} goal="" onAnswer={onAnswer} />);
      expect(r.lastFrame()).toContain('Esc/n/q: quit, change nothing');
      await listening(r.stdin);
      r.stdin.write(k);
      await waitFor(() => expect(onAnswer).toHaveBeenCalledWith(expected));
      expect(onAnswer).toHaveBeenCalledTimes(1);
      r.unmount();
    }
  });

  it('resume on start: Ctrl+C interrupts', async () => {
    const onAnswer = vi.fn();
    const onInterrupt = vi.fn();
    const r = render(
      <ResumeDialog phase="REVIEW" iteration={2} goal="" onAnswer={onAnswer} onInterrupt={onInterrupt} />,
    );
    await listening(r.stdin);
    r.stdin.write(KEY.ctrlC);
    await waitFor(() => expect(onInterrupt).toHaveBeenCalled());
    expect(onAnswer).not.toHaveBeenCalled();
  });
});
