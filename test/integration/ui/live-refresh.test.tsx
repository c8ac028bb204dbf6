// Live refresh: chokidar watches .agent-collab/; a file changed outside agent-collab is on screen within 300 ms.
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { filesReader } from '../../../src/modes/interactive.js';
import { App } from '../../../src/ui/App.js';
import { closeFakeSessions, openFakeSession } from './fake-session.js';
import { listening, sleep, waitFor } from '../../unit/ui/ui-helpers.js';

const LIMIT_MS = 300;
/** Typical times are 30-90 ms; the margin absorbs a loaded 2-core machine (other test runs, a build). */
const MARGIN_MS = 200;
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

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

/** ms from the write until `text` is on screen (polled every 2 ms; gives up after 3 s). */
async function latency(write: () => void, frame: () => string, text: string): Promise<number> {
  const t0 = performance.now();
  write();
  for (;;) {
    if (frame().includes(text)) return performance.now() - t0;
    if (performance.now() - t0 > 3000) throw new Error(`"${text}" not on screen after 3 s:\n${frame()}`);
    await sleep(2);
  }
}

describe('live refresh', () => {
  it(`plan.md written from outside shows in the Plan tab within ${LIMIT_MS} ms`, async () => {
    const t = await start();
    t.r.stdin.write('2');
    await waitFor(() => expect(t.frame()).toContain('No plan.md yet'));
    await sleep(300); // let the watcher get ready
    const times: number[] = [];
    for (let i = 1; i <= 5; i++) {
      times.push(await latency(() => writeFileSync(t.session.paths.plan, `# Plan edited outside, version ${i}\n\n## Steps\n1. [ ] Do it\n`), t.frame, `version ${i}`));
      await sleep(50);
    }
    console.log(`plan.md outside write → on screen: ${times.map((ms) => `${Math.round(ms)} ms`).join(', ')}`);
    expect(median(times)).toBeLessThan(LIMIT_MS);
    expect(Math.max(...times)).toBeLessThan(LIMIT_MS + MARGIN_MS);
  });

  it('log.md and debug.log appended from outside show in the Log tab', async () => {
    const t = await start();
    t.r.stdin.write('4');
    await waitFor(() => expect(t.frame()).toContain('── log.md ──'));
    await sleep(300);
    const logMs = await latency(() => writeFileSync(t.session.paths.log, '# Run log\n\n## Written from outside\n'), t.frame, '## Written from outside');
    const debugMs = await latency(() => writeFileSync(t.session.paths.debugLog, '2026-01-01T00:00:00Z [test] appended from outside\n', { flag: 'a' }), t.frame, 'appended from outside');
    console.log(`log.md → screen ${Math.round(logMs)} ms; debug.log → screen ${Math.round(debugMs)} ms`);
    expect(Math.max(logMs, debugMs)).toBeLessThan(LIMIT_MS + MARGIN_MS);
  });
});
