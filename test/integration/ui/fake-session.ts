// A real session (files, lock, engine) in a temp repo with the demo-scripted fake agents, for App tests.
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import { DEMO_SCRIPT, type FakeScript } from '../../../src/adapters/fake/script.js';
import type { Engine } from '../../../src/engine/runner.js';
import { openSession, type Session } from '../../../src/modes/session.js';
import { tempRepo } from '../../helpers/repo.js';

const opened: Array<{ session: Session; cleanup: () => void }> = [];

/** Opens a session with a new manual run for `goal` (the planner follows `plannerScript`); closed by closeFakeSessions(). */
export async function openFakeSession(
  goal: string,
  plannerScript: FakeScript = DEMO_SCRIPT,
): Promise<{ session: Session; engine: Engine; dir: string }> {
  const repo = tempRepo('[roles]\nplanner = "fake"\nreviewer = "fake"\n');
  const agents = {
    planner: new FakeAgent('fake-planner', plannerScript),
    reviewer: new FakeAgent('fake-reviewer', DEMO_SCRIPT),
  };
  const session = await openSession({ cwd: repo.dir, homeDir: repo.home, agents });
  opened.push({ session, cleanup: repo.cleanup });
  return { session, engine: session.engineFor(session.newRun(goal, 'manual')), dir: repo.dir };
}

export async function closeFakeSessions(): Promise<void> {
  for (const o of opened.splice(0)) {
    await o.session.close();
    o.cleanup();
  }
}
