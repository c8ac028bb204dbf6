// Live refresh: chokidar watches .agent-collab/; a file changed outside agent-collab shows on screen.
import { writeFileSync } from 'node:fs';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { filesReader } from '../../../src/modes/interactive.js';
import { App } from '../../../src/ui/App.js';
import { closeFakeSessions, openFakeSession } from './fake-session.js';
import { listening, sleep, waitFor } from '../../unit/ui/ui-helpers.js';

afterEach(async () => {
  cleanup();
  await closeFakeSessions();
});

async function start() {
  const { session, engine } = await openFakeSession('add a flag');
  const r = render(<App engine={engine} files={filesReader(session)} tickMs={0} />);
  await listening(r.stdin);
  return { r, session, frame: () => r.lastFrame() ?? '' };
}

/** How quickly it shows is a bench figure; here the waits only turn a miss into a failure. */
const LIMIT_MS = 30_000;

/** The watcher starts in the background: the first write is repeated until the screen shows it. */
async function firstShown(write: () => void, frame: () => string, text: string): Promise<void> {
  for (let waited = 0; !frame().includes(text); waited += 500) {
    if (waited > LIMIT_MS) throw new Error(`"${text}" not on screen:\n${frame()}`);
    write();
    await sleep(500);
  }
}

describe('live refresh', { timeout: 4 * LIMIT_MS }, () => {
  it('plan.md written from outside shows in the Plan tab, each version in turn', async () => {
    const t = await start();
    t.r.stdin.write('2');
    await waitFor(() => expect(t.frame()).toContain('No plan.md yet'));
    const write = (i: number) => () =>
      writeFileSync(t.session.paths.plan, `# Plan edited outside, version ${i}\n\n## Steps\n1. [ ] Do it\n`);
    await firstShown(write(1), t.frame, 'version 1');
    for (let i = 2; i <= 5; i++) {
      // chokidar drops a change to a file within 50 ms of the one before (no trailing event): the versions come apart
      await sleep(100);
      write(i)();
      await waitFor(() => expect(t.frame()).toContain(`version ${i}`), LIMIT_MS);
    }
  });

  it('log.md and debug.log appended from outside show in the Log tab', async () => {
    const t = await start();
    t.r.stdin.write('4');
    await waitFor(() => expect(t.frame()).toContain('[4:Log]'));
    // log.md's entry and debug.log's line show as events (issue 20: parsed, one line each).
    await firstShown(
      () => writeFileSync(t.session.paths.log, '# Run log\n\n## Written from outside\n'),
      t.frame,
      'entry       Written from outside',
    );
    writeFileSync(t.session.paths.debugLog, '2026-01-01T00:00:00Z [test] appended from outside\n', { flag: 'a' });
    await waitFor(() => expect(t.frame()).toContain('appended from outside'), LIMIT_MS);
  });
});
