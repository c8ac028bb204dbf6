// Issue 19, item 7: at the end of a run the TUI shows its report — the status, the key numbers and where report.md
// is — over a real engine and session with the demo-scripted fake agents (auto mode, auto-approve).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import { DEMO_SCRIPT } from '../../../src/adapters/fake/script.js';
import { filesReader } from '../../../src/modes/interactive.js';
import { openSession, type Session } from '../../../src/modes/session.js';
import { App } from '../../../src/ui/App.js';
import { tempRepo } from '../../helpers/repo.js';
import { listening, waitFor as waitForWithin } from '../../unit/ui/ui-helpers.js';

const LIMIT_MS = 60_000;
const waitFor = (check: () => void): Promise<void> => waitForWithin(check, LIMIT_MS);

let opened: { session: Session; cleanup: () => void } | null = null;
afterEach(async () => {
  cleanup();
  if (opened) {
    await opened.session.close();
    opened.cleanup();
    opened = null;
  }
});

describe('the TUI’s end screen', { timeout: 3 * LIMIT_MS }, () => {
  it('shows the run report’s status, numbers and path once the run is DONE', async () => {
    const repo = tempRepo(
      '[roles]\nplanner = "fake"\nreviewer = "fake"\n[workflow]\nauto_approve = true\n[review]\ncode = "off"\n',
    );
    const agents = {
      planner: new FakeAgent('fake-planner', DEMO_SCRIPT),
      reviewer: new FakeAgent('fake-reviewer', DEMO_SCRIPT),
    };
    const session = await openSession({ cwd: repo.dir, homeDir: repo.home, agents });
    opened = { session, cleanup: repo.cleanup };
    const engine = session.engineFor(session.newRun('Add a greeting module', 'auto'));
    const r = render(
      <App
        engine={engine}
        files={filesReader(session)}
        tickMs={0}
        onReady={() =>
          void engine
            .dispatch({ type: 'start', goal: 'Add a greeting module' })
            .then(() => engine.dispatch({ type: 'goal_ready', goal: 'Add a greeting module' }))
        }
      />,
    );
    await listening(r.stdin);
    const frame = (): string => r.lastFrame() ?? '';
    const screens = (): string => `\n--- last screen ---\n${frame()}`;

    await waitFor(() => expect(engine.state.phase, screens()).toBe('DONE'));
    await waitFor(() => expect(frame(), screens()).toContain('Report: SUCCESS'));
    const file = path.join(repo.dir, '.agent-collab', 'runs', engine.state.runId, 'report.md');
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toContain('\nstatus: "SUCCESS"\n');
    const steps = engine.state.steps.length;
    // The frame wraps long lines: compare without the line breaks and the box's borders.
    const flat = frame().replace(/[│\n]/g, ' ').replace(/\s+/g, ' ');
    expect(flat, screens()).toContain(`${steps}/${steps} step(s) done, ${steps} commit(s)`);
    expect(flat, screens()).toContain(`Report: ${file}`.replace(/\s+/g, ' '));
  });
});
