import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/core/types.js';
import { fakeFiles, KEY, renderApp, waitFor, type Rendered } from './ui-helpers.js';

afterEach(() => cleanup());

const say = (r: Rendered, role: 'planner' | 'reviewer', event: AgentEvent): void =>
  r.engine.emit({ type: 'agent_event', role, event });

const PLAN = '# Task: add a flag\n\n## Steps\n1. [x] Parse --verbose\n2. [ ] Document it\n';
const COMMENTS = '[CHANGES_REQUIRED]\n\n## Comments\n1. Step 2 needs an example.';

describe('tabs', () => {
  it('Conversation shows both agents’ messages, labelled by role', async () => {
    const r = await renderApp({ phase: 'REVIEW' });
    say(r, 'planner', { type: 'text', text: 'I wrote the plan.' });
    say(r, 'reviewer', { type: 'text', text: 'Step 2 needs an example.' });
    await waitFor(() =>
      expect(r.frame()).toMatch(/planner\n {2}I wrote the plan\.\nreviewer\n {2}Step 2 needs an example\./),
    );
  });

  it('Conversation shows tool calls and commands as one line; x expands them', async () => {
    const r = await renderApp({ phase: 'EXECUTE' });
    say(r, 'planner', { type: 'command', id: 'c1', command: 'npm test', status: 'started' });
    say(r, 'planner', {
      type: 'command',
      id: 'c1',
      command: 'npm test',
      status: 'completed',
      exitCode: 0,
      output: '# pass 2\n# fail 0',
    });
    await waitFor(() => expect(r.frame()).toContain('$ planner: npm test (exit 0) ✓ [x]'));
    expect(r.frame()).not.toContain('# pass 2');
    await r.press('x');
    await waitFor(() => expect(r.frame()).toContain('      # pass 2'));
    await r.press('x');
    await waitFor(() => expect(r.frame()).not.toContain('# pass 2'));
  });

  it('Plan shows plan.md with the steps, their checkboxes and commits', async () => {
    const steps = [
      { n: 1, title: 'Parse --verbose', done: true, commit: 'abc1234def' },
      { n: 2, title: 'Document it', done: false },
    ];
    const r = await renderApp({ phase: 'EXECUTE', steps, currentStep: 2 }, { files: fakeFiles({ plan: PLAN }) });
    await r.press('2');
    await waitFor(() => expect(r.frame()).toContain('# Task: add a flag'));
    expect(r.frame()).toContain('Steps: 1/2 done');
    expect(r.frame()).toContain('[x] 1. Parse --verbose (abc1234)');
    expect(r.frame()).toContain('[>] 2. Document it');
    expect(r.frame()).toContain('1. [x] Parse --verbose');
  });

  it('Code shows the code review: its round, the reviewer’s comments and the diff under review', async () => {
    const codeReview = {
      mode: 'final' as const,
      maxRounds: 3,
      limit: 3,
      round: 1,
      step: null,
      baseTree: 'abc',
      diff: 'diff --git a/greet.ts b/greet.ts\n@@ -0,0 +1 @@\n+export const hi = 1;',
      comments: '[CHANGES_REQUIRED]\n\n## Comments\n1. Rename hi to greeting.',
      tests: [],
      approved: false,
    };
    const r = await renderApp({ phase: 'CODE_REVIEW', codeReview });
    await r.press('6');
    await waitFor(() => expect(r.frame()).toContain("Code review of the run's changes after its last step"));
    expect(r.frame()).toContain('round 1 of at most 3');
    expect(r.frame()).toContain('1. Rename hi to greeting.');
    expect(r.frame()).toContain('+export const hi = 1;');
  });

  it('Status says where the code review stands, or that it is off', async () => {
    const codeReview = {
      mode: 'each' as const,
      maxRounds: 3,
      limit: 4,
      round: 2,
      step: 3,
      baseTree: null,
      diff: null,
      comments: null,
      tests: [],
      approved: false,
    };
    const reviewing = await renderApp({ phase: 'CODE_REVIEW', codeReview });
    await reviewing.press('5');
    await waitFor(() =>
      expect(reviewing.frame()).toMatch(/code review +of each step \(now step 3\) · round 2 of at most 4/),
    );
    cleanup();
    const off = await renderApp({ phase: 'EXECUTE', codeReview: null });
    await off.press('5');
    await waitFor(() => expect(off.frame()).toMatch(/code review +off/));
  });

  it('Plan says so when there is no plan yet', async () => {
    const r = await renderApp({ phase: 'REFINE_GOAL', awaiting: { kind: 'goal' } });
    await r.press(KEY.tab);
    await waitFor(() => expect(r.frame()).toContain('No plan.md yet'));
  });

  it('Comments shows comments.md under a verdict badge', async () => {
    const r = await renderApp(
      { phase: 'RESPOND', iteration: 1, lastVerdict: 'CHANGES_REQUIRED' },
      { files: fakeFiles({ comments: COMMENTS }) },
    );
    await r.press('3');
    await waitFor(() => expect(r.frame()).toContain('✗ CHANGES_REQUIRED  (iteration 1)'));
    expect(r.frame()).toContain('1. Step 2 needs an example.');
  });

  it('Comments shows APPROVED once the reviewer approves', async () => {
    const r = await renderApp(
      { phase: 'APPROVED', iteration: 2, lastVerdict: 'APPROVED' },
      { files: fakeFiles({ comments: '[APPROVED]\n\nFine.' }) },
    );
    await r.press('3');
    await waitFor(() => expect(r.frame()).toContain('✓ APPROVED  (iteration 2)'));
  });

  it('Log and Status are collapsed until opened with 4 / 5, and close again', async () => {
    const r = await renderApp(
      {
        phase: 'REVIEW',
        sessions: { planner: 'sess-p1', reviewer: null },
        usage: { inputTokens: 1500, outputTokens: 500, cachedTokens: 0, costUsd: 0.12, durationMs: 61_000, calls: 3 },
      },
      { files: fakeFiles({ log: '## Run started\ngoal: add a flag' }) },
    );
    expect(r.frame()).toContain('4:Log ▸');
    expect(r.frame()).toContain('5:Status ▸');
    await r.press('4');
    await waitFor(() => expect(r.frame()).toMatch(/log\.md +entry +Run started/));
    expect(r.frame()).not.toContain('4:Log ▸');
    await r.press('5');
    await waitFor(() => expect(r.frame()).toContain('sess-p1'));
    expect(r.frame()).toMatch(/tokens +1\.5k in · 500 out/);
    expect(r.frame()).toMatch(/cost +\$0\.12/);
    expect(r.frame()).toMatch(/agent time +1:01 over 3 call/);
    await r.press('5');
    await waitFor(() => expect(r.frame()).toContain('5:Status ▸'));
    expect(r.frame()).toContain('Nothing yet.'); // back on Conversation
  });

  it('Tab and Shift+Tab cycle through the open tabs', async () => {
    const r = await renderApp({ phase: 'REVIEW' });
    await r.press(KEY.tab);
    await waitFor(() => expect(r.frame()).toContain('No plan.md yet'));
    await r.press(KEY.tab);
    await waitFor(() => expect(r.frame()).toContain('no verdict yet'));
    await r.press(KEY.tab); // Log / Status are closed: on to the code review
    await waitFor(() => expect(r.frame()).toContain('The code is not reviewed in this run'));
    await r.press(KEY.tab);
    await waitFor(() => expect(r.frame()).toContain('No step committed yet'));
    await r.press(KEY.tab);
    await waitFor(() => expect(r.frame()).toContain('Nothing yet.'));
    await r.press(KEY.shiftTab);
    await waitFor(() => expect(r.frame()).toContain('No step committed yet'));
  });

  it('renders only the lines that fit, follows the stream, and scrolls with PgUp / Home / End', async () => {
    const r = await renderApp({ phase: 'REVIEW' });
    for (let i = 1; i <= 200; i++) say(r, 'planner', { type: 'text', text: `message ${i}` });
    await waitFor(() => expect(r.frame()).toContain('message 200'));
    expect(r.frame()).not.toContain('message 150');
    expect(r.frame().split('\n').length).toBeLessThanOrEqual(24);
    await r.press(KEY.pageUp);
    await waitFor(() => expect(r.frame()).not.toContain('message 200'));
    say(r, 'planner', { type: 'text', text: 'message 201' });
    await r.press(KEY.home);
    await waitFor(() => expect(r.frame()).toContain('message 1\n'));
    await r.press(KEY.end);
    await waitFor(() => expect(r.frame()).toContain('message 201'));
    say(r, 'planner', { type: 'text', text: 'message 202' });
    await waitFor(() => expect(r.frame()).toContain('message 202'));
  });
});
