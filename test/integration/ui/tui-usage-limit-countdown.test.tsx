// The TUI over a real engine when a usage limit parks the run ([limits] wait_for_reset): a countdown dialog names the
// wake-up time and what is left; Enter runs the round now, `s` stops back to goal refinement.
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import { DEMO_SCRIPT } from '../../../src/adapters/fake/script.js';
import { filesReader } from '../../../src/modes/interactive.js';
import { openSession, type Session } from '../../../src/modes/session.js';
import { App } from '../../../src/ui/App.js';
import { tempRepo } from '../../helpers/repo.js';
import { KEY, listening, sleep, waitFor as waitForWithin } from '../../unit/ui/ui-helpers.js';

const LIMIT_MS = 60_000;
const waitFor = (check: () => void): Promise<void> => waitForWithin(check, LIMIT_MS);
const MINUTE = 60_000;

const opened: Array<{ session: Session; cleanup: () => void }> = [];
afterEach(async () => {
  cleanup();
  for (const o of opened.splice(0)) {
    await o.session.close();
    o.cleanup();
  }
});

/** A manual run at its first go; the planner's first plan hits a usage limit whose wake-up is 37 minutes ahead. */
async function start() {
  const repo = tempRepo('[roles]\nplanner = "fake"\nreviewer = "fake"\n[limits]\nwait_for_reset = true\n');
  const planner = new FakeAgent('fake-planner', {
    rules: [
      {
        when: { kind: 'write_plan' },
        times: 1,
        do: { fail: { kind: 'usage_limit', message: 'usage limit reached', resetInMs: 37 * MINUTE - 30_000 } },
      },
      ...DEMO_SCRIPT.rules,
    ],
  });
  const agents = { planner, reviewer: new FakeAgent('fake-reviewer', DEMO_SCRIPT) };
  const session = await openSession({ cwd: repo.dir, homeDir: repo.home, agents });
  opened.push({ session, cleanup: repo.cleanup });
  const engine = session.engineFor(session.newRun('add a greeting', 'manual'));
  const r = render(
    <App
      engine={engine}
      files={filesReader(session)}
      tickMs={0}
      onReady={() =>
        void engine
          .dispatch({ type: 'start', goal: 'add a greeting' })
          .then(() => engine.dispatch({ type: 'goal_ready' }))
      }
    />,
  );
  const frame = (): string => r.lastFrame() ?? '';
  const screens = (): string => `\n--- last screen ---\n${frame()}`;
  const press = async (key: string): Promise<void> => {
    r.stdin.write(key);
    await sleep(5);
  };
  await listening(r.stdin);
  await waitFor(() => expect(frame(), screens()).toContain('Enter next round'));
  await press(KEY.enter);
  await waitFor(() => expect(engine.state.awaiting?.kind, screens()).toBe('usage_limit'));
  return { engine, planner, frame, screens, press };
}

const hhmm = (iso: string): string => {
  const d = new Date(iso);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

describe('the TUI while a usage limit parks the run', { timeout: 4 * LIMIT_MS }, () => {
  it('shows the countdown to the wake-up time; Enter retries the round now', async () => {
    const t = await start();
    const w = t.engine.state.awaiting;
    if (w?.kind !== 'usage_limit') throw new Error('not parked');
    await waitFor(() =>
      // With the date in front when the wake-up is on another day (a run near midnight).
      expect(t.frame(), t.screens()).toMatch(
        new RegExp(`usage limit: waiting until (\\d{4}-\\d\\d-\\d\\d )?${hhmm(w.until)} \\(37 min\\)`),
      ),
    );
    expect(t.frame()).toContain('Enter: retry now · s: stop');
    expect(t.planner.turns).toHaveLength(1);

    await t.press(KEY.enter);
    await waitFor(() => expect(t.planner.turns, t.screens()).toHaveLength(2));
    await waitFor(() => expect(t.engine.state.phase, t.screens()).toBe('REVIEW'));
    expect(t.frame()).not.toContain('usage limit: waiting');
  });

  it('s stops the run back to goal refinement, the round not run again', async () => {
    const t = await start();
    await waitFor(() => expect(t.frame(), t.screens()).toContain('usage limit: waiting until'));
    await t.press('s');
    await waitFor(() => expect(t.engine.state.phase, t.screens()).toBe('REFINE_GOAL'));
    await waitFor(() => expect(t.frame(), t.screens()).toContain('goal ›'));
    expect(t.planner.turns).toHaveLength(1);
  });
});
