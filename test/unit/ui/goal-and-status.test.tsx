import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY, renderApp, sleep, waitFor } from './ui-helpers.js';

afterEach(() => cleanup());

const REFINING = { phase: 'REFINE_GOAL', goal: '', awaiting: { kind: 'goal' } } as const;

describe('goal input', () => {
  it('Enter sends the typed text to the planner as a message', async () => {
    const r = await renderApp(REFINING);
    expect(r.frame()).toContain('goal ›');
    await r.type('add a --verbose flag');
    await waitFor(() => expect(r.frame()).toContain('goal › add a --verbose flag'));
    await r.press(KEY.enter);
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'user_message', text: 'add a --verbose flag' }]));
    await waitFor(() => expect(r.frame()).toMatch(/you\n {2}add a --verbose flag/)); // shown in the conversation
    expect(r.frame()).not.toContain('goal › add');
  });

  it('letters are text while typing, not commands', async () => {
    const r = await renderApp(REFINING);
    await r.type('sap?');
    await waitFor(() => expect(r.frame()).toContain('goal › sap?'));
    expect(r.engine.sent).toEqual([]);
    await r.press(KEY.backspace);
    // 'goal › sap' is also in the frame before the backspace lands, so wait for the '?' to go.
    await waitFor(() => expect(r.frame()).toMatch(/goal › sap +│/));
  });

  it('/ready says the goal is ready once a goal is stated', async () => {
    const r = await renderApp({ ...REFINING, goal: 'fix the bug' });
    await r.type('/ready');
    await r.press(KEY.enter);
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'goal_ready' }]));
  });

  it('Ctrl+G says the goal is ready, with the typed text as the goal', async () => {
    const r = await renderApp(REFINING);
    await r.type('fix the bug');
    await r.press(KEY.ctrlG);
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'goal_ready', goal: 'fix the bug' }]));
  });

  it('without a goal, Ctrl+G and /ready are not offered and, pressed, send nothing but say what to do', async () => {
    const r = await renderApp(REFINING);
    expect(r.frame()).not.toContain('Ctrl+G');
    expect(r.frame()).not.toContain('goal ready');
    await r.press(KEY.ctrlG);
    await waitFor(() => expect(r.frame()).toContain('No goal yet: type it in the goal box'));
    await r.type('/ready');
    await r.press(KEY.enter);
    await sleep(30);
    expect(r.engine.sent).toEqual([]);
    expect(r.frame()).not.toContain('Goal is ready');
    expect(r.frame()).toContain('goal › /ready'); // what was typed is kept
    await r.press(...Array<string>(6).fill(KEY.backspace));
    await r.type('fix the bug');
    await waitFor(() => expect(r.frame()).toContain('Ctrl+G goal ready'));
  });

  it('fast typing loses no characters', async () => {
    const r = await renderApp(REFINING);
    for (const ch of 'abcdefghij') r.stdin.write(ch);
    await waitFor(() => expect(r.frame()).toContain('goal › abcdefghij'));
  });

  it('Esc leaves the box so keys work, and comes back', async () => {
    const r = await renderApp(REFINING);
    await r.press(KEY.esc, '2');
    await waitFor(() => expect(r.frame()).toContain('No plan.md yet'));
    await r.press(KEY.esc, 'z');
    await waitFor(() => expect(r.frame()).toContain('goal › z'));
  });

  // Issue 20, defect 7: what was typed while the planner answered was dropped silently.
  it('while the planner answers, typing is kept, Enter queues it (shown), and it is sent once the planner waits', async () => {
    const answering = { ...REFINING, awaiting: null, inflight: { kind: 'refine', message: 'x' } } as const;
    const r = await renderApp(answering);
    expect(r.frame()).toContain('the planner is answering');
    await r.type('sap');
    await waitFor(() => expect(r.frame()).toContain('goal › sap'));
    expect(r.frame()).not.toContain('Stop this phase'); // letters are text here too, not commands
    await r.press(KEY.enter);
    await r.type('and tests');
    await r.press(KEY.enter);
    await waitFor(() => expect(r.frame()).toContain('queued, sent when the planner has answered: sap · and tests'));
    await sleep(30);
    expect(r.engine.sent).toEqual([]); // nothing reaches the engine while the planner answers
    r.engine.set({ inflight: null, awaiting: { kind: 'goal' } });
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'user_message', text: 'sap\nand tests' }]));
    expect(r.frame()).not.toContain('queued');
  });

  it('a queued message is not sent after Esc interrupts the round: it goes back into the goal box, unsent', async () => {
    const r = await renderApp({ ...REFINING, awaiting: null, inflight: { kind: 'refine', message: 'x' } });
    await r.type('sap');
    await r.press(KEY.enter);
    await waitFor(() => expect(r.frame()).toContain('queued, sent when the planner has answered: sap'));
    await r.press(KEY.esc);
    await waitFor(() => expect(r.engine.sent).toEqual([{ type: 'interrupt' }]));
    // The round the message waited for is over; later, at the goal again, nothing is sent by itself.
    r.engine.set({ inflight: null, awaiting: { kind: 'goal' } });
    await waitFor(() => expect(r.frame()).toContain('goal › sap'));
    await sleep(30);
    expect(r.engine.sent).toEqual([{ type: 'interrupt' }]);
    expect(r.frame()).not.toContain('queued');
  });

  it('typed but not sent while the planner answers, the text stays in the box for after', async () => {
    const r = await renderApp({ ...REFINING, awaiting: null, inflight: { kind: 'refine', message: 'x' } });
    await r.type('half a thought');
    r.engine.set({ inflight: null, awaiting: { kind: 'goal' } });
    await waitFor(() => expect(r.frame()).toContain('Enter: send to the planner'));
    expect(r.frame()).toContain('goal › half a thought');
    expect(r.engine.sent).toEqual([]);
  });
});

describe('status bar', () => {
  it('shows phase, iteration, mode, the working agent, elapsed, tokens and cost', async () => {
    const usage = { inputTokens: 10_000, outputTokens: 2_345, cachedTokens: 0, costUsd: 0.42, durationMs: 0, calls: 2 };
    let t = 1_000_000;
    const r = await renderApp(
      { phase: 'REVIEW', iteration: 2, maxIterations: 5, mode: 'auto', inflight: { kind: 'review' }, usage },
      { now: () => t, tickMs: 20 },
    );
    t += 65_000;
    await waitFor(() => expect(r.frame()).toContain('⏱ 1:05'));
    const f = r.frame();
    expect(f).toMatch(/REVIEW +iter 2\/5 +AUTO +[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] reviewer: reviewing the plan \(round 3\) 1:05/);
    expect(f).toContain('12k tok $0.42');
    expect(f).toContain('Esc interrupt · p pause · s stop · ? help · Ctrl+C quit');

    // What the agent does right now: its command, then its writing.
    r.engine.emit({
      type: 'agent_event',
      role: 'reviewer',
      event: { type: 'command', command: 'npm test', status: 'started', id: 'c1' },
    });
    await waitFor(() => expect(r.frame()).toMatch(/reviewer: reviewing the plan \(round 3\) 1:05 · \$ npm/));
    r.engine.emit({ type: 'agent_event', role: 'reviewer', event: { type: 'text', text: 'Looks fine.' } });
    await waitFor(() => expect(r.frame()).toMatch(/reviewer: reviewing the plan \(round 3\) 1:05 · writi/));
  });

  it('shows the rejection when the engine refuses a command', async () => {
    const r = await renderApp({ phase: 'REVIEW' });
    r.engine.emit({
      type: 'rejected',
      event: 'go',
      message: '"go" is not allowed in phase REVIEW: nothing is waiting for a go',
    });
    await waitFor(() => expect(r.frame()).toContain('nothing is waiting for a go'));
  });

  it('fits in 24 rows', async () => {
    const r = await renderApp({ phase: 'REVIEW', awaiting: { kind: 'go', action: { kind: 'review' } } });
    r.stdout.emit('resize');
    const lines = r.frame().split('\n');
    expect(lines.length).toBeLessThanOrEqual(23);
  });
});
