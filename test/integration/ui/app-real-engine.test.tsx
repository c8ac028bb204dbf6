// The App over a real Engine, session and files, with scripted fake agents: the keyboard flow end to end.
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_SCRIPT, type FakeScript } from '../../../src/adapters/fake/script.js';
import { filesReader } from '../../../src/modes/interactive.js';
import { App } from '../../../src/ui/App.js';
import { gitLog } from '../../helpers/repo.js';
import { closeFakeSessions, openFakeSession } from './fake-session.js';
import { KEY, listening, sleep, waitFor as waitForWithin } from '../../unit/ui/ui-helpers.js';

// Real files, git commits and a real engine: on a loaded machine a round can take seconds. The waits end as soon as
// the screen shows what they look for; their limit only turns a hang into a failure.
const LIMIT_MS = 60_000;
const waitFor = (check: () => void): Promise<void> => waitForWithin(check, LIMIT_MS);

afterEach(async () => {
  cleanup();
  await closeFakeSessions();
});

async function start(plannerScript?: FakeScript) {
  const { session, engine, dir } = await openFakeSession('', plannerScript);
  const r = render(
    <App
      engine={engine}
      files={filesReader(session)}
      tickMs={0}
      onReady={() => void engine.dispatch({ type: 'start', goal: '' })}
    />,
  );
  const press = async (...keys: string[]): Promise<void> => {
    for (const k of keys) {
      r.stdin.write(k);
      await sleep(5);
    }
  };
  const frame = (): string => r.lastFrame() ?? '';
  const screens = (): string => `\n--- last screen ---\n${frame()}`;
  await listening(r.stdin);
  return { r, engine, press, frame, screens, dir };
}

describe('the TUI on a real engine', { timeout: 4 * LIMIT_MS }, () => {
  it('goal → refinement → goal ready → Enter through the rounds → approval → execution → done', async () => {
    const t = await start();
    // Ctrl+G is offered only once a goal is typed (issue 20, defect 8): the goal box is the sign of readiness.
    await waitFor(() => expect(t.frame(), t.screens()).toContain('waiting for your goal'));
    await t.press(...Array.from('Add a greeting module'), KEY.enter);
    await waitFor(() =>
      expect(t.frame(), t.screens()).toMatch(/you\n {2}Add a greeting module\nplanner\n {2}## Refined goal/),
    );
    await waitFor(() => expect(t.frame(), t.screens()).toContain('Ctrl+G goal ready'));
    await t.press(KEY.ctrlG);
    await waitFor(() => expect(t.engine.state.phase, t.screens()).toBe('WRITE_PLAN'));

    // Manual mode: each Enter lets one round through, until the plan is approved.
    // (The tests wait for the screen, not the engine: a key means what the screen shows when it is pressed.)
    // A fake round can be over before the next frame is drawn: the screen then goes straight from one "Next:" line to
    // the next one, so the wait is for the line to change (or to go while the round runs).
    const nextLine = (): string => /^Next: .*$/m.exec(t.frame())?.[0] ?? '';
    for (let i = 0; i < 10; i++) {
      await waitFor(() => expect(t.frame(), t.screens()).toContain('Enter next round'));
      if (t.frame().includes('Next: planner — executing step 1/3')) break;
      const before = nextLine();
      await t.press(KEY.enter);
      await waitFor(() => expect(nextLine(), t.screens()).not.toBe(before));
    }
    await waitFor(() => expect(t.engine.state.phase, t.screens()).toBe('APPROVED'));
    expect(t.engine.state.iteration).toBe(2);
    await t.press('3');
    await waitFor(() => expect(t.frame(), t.screens()).toContain('✓ APPROVED  (iteration 2)'));
    // The issue ledger above the comments: the first review's two comments, answered by number and then settled
    // by the approval.
    expect(t.frame(), t.screens()).toContain('Issue ledger: 2 entries, 0 live');
    expect(t.frame(), t.screens()).toMatch(/L1 +resolved +plan r1 +Step 1 does not say what `greet\(\)` returns/);
    expect(t.frame(), t.screens()).toMatch(/L2 +resolved +plan r1 +Nothing documents the new module/);
    await t.press('2');
    await waitFor(() => expect(t.frame(), t.screens()).toContain('Steps: 0/3 done'));

    // The person approves execution with Enter, then lets auto mode run the rest.
    await waitFor(() => expect(t.frame(), t.screens()).toContain('Next: planner — executing step 1/3'));
    await t.press(KEY.enter);
    await waitFor(() => expect(t.frame(), t.screens()).toContain('Steps: 1/3 done'));
    await waitFor(() => expect(t.frame(), t.screens()).toContain('Next: planner — executing step 2/3'));
    await t.press('a');
    await waitFor(() => expect(t.engine.state.phase, t.screens()).toBe('DONE'));
    await waitFor(() => expect(t.frame(), t.screens()).toContain('Run finished'));
    expect(gitLog(t.dir).filter((m) => m.startsWith('[Step '))).toHaveLength(3);
  });

  it('s during a round stops it after confirming and returns to goal refinement', async () => {
    // The planner's plan never comes, so the round is still running whenever the screen is drawn.
    const t = await start({ rules: [{ when: { kind: 'write_plan' }, do: { hang: true } }, ...DEMO_SCRIPT.rules] });
    await waitFor(() => expect(t.frame(), t.screens()).toContain('waiting for your goal'));
    await t.press(...Array.from('Add a greeting module'), KEY.ctrlG);
    await waitFor(() => expect(t.frame(), t.screens()).toContain('Enter next round'));
    await t.press(KEY.enter);
    await waitFor(() => expect(t.frame(), t.screens()).toContain('s stop'));
    await t.press('s');
    await waitFor(() => expect(t.frame(), t.screens()).toContain('[y/N]'));
    await t.press('y');
    await waitFor(() => expect(t.engine.state.phase, t.screens()).toBe('REFINE_GOAL'));
    await waitFor(() => expect(t.frame(), t.screens()).toContain('goal ›'));
  });
});
