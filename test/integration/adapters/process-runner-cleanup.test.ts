import { afterEach, describe, expect, it, vi } from 'vitest';
import { KILL_GRACE_MS, runProcess, type RunningProcess } from '../../../src/adapters/process-runner.js';
import { isAlive, nodeScript, pidFrom, waitUntilDead, withSleepingGrandchild } from './process-helpers.js';

const HANG = 'setInterval(() => {}, 1000);';
const strays: number[] = [];

async function firstLine(proc: RunningProcess): Promise<string | undefined> {
  for await (const line of proc.lines()) return line;
  return undefined;
}

/**
 * A fake clock that still runs with real time: a timeout fires when the test moves the clock past it, never because
 * a loaded machine was slow to start node. The timeouts are far longer than any test runs.
 */
function fakeClock(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldAdvanceTime: true });
}
const LONG_MS = 10 * 60_000;
const realSetTimeout = globalThis.setTimeout;
const realPause = (ms: number): Promise<void> => new Promise((r) => realSetTimeout(r, ms));

afterEach(() => {
  vi.useRealTimers();
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

describe('process runner: nothing is left behind', () => {
  it('stop() ends the CLI and its sleep grandchild', async () => {
    const proc = runProcess(nodeScript(withSleepingGrandchild(HANG)));
    const grandchild = pidFrom(await firstLine(proc));
    strays.push(grandchild);
    expect(isAlive(grandchild)).toBe(true);
    const end = await proc.stop();
    expect(end.kind).toBe('stopped');
    expect(await waitUntilDead(grandchild)).toBe(true);
  });

  it('an idle timeout ends the CLI and its grandchild', async () => {
    fakeClock();
    const proc = runProcess(nodeScript(withSleepingGrandchild(HANG), { idleTimeoutMs: LONG_MS }));
    const grandchild = pidFrom(await firstLine(proc));
    strays.push(grandchild);
    vi.advanceTimersByTime(LONG_MS); // quiet since its first line
    const end = await proc.ended;
    expect(end).toMatchObject({ kind: 'idle', afterMs: LONG_MS });
    expect(await waitUntilDead(grandchild)).toBe(true);
  });

  it('a wall timeout ends a CLI that keeps talking', async () => {
    fakeClock();
    const talk = "setInterval(() => process.stdout.write('tick\\n'), 50);";
    // every line restarts the idle timeout, which is longer than the wall timeout: only the wall timeout can end it
    const proc = runProcess(
      nodeScript(withSleepingGrandchild(talk), { wallTimeoutMs: LONG_MS, idleTimeoutMs: 2 * LONG_MS }),
    );
    const lines: string[] = [];
    for await (const line of proc.lines()) {
      lines.push(line);
      if (lines.length === 4) vi.advanceTimersByTime(LONG_MS); // it kept talking until the wall timeout
    }
    const grandchild = pidFrom(lines[0]);
    strays.push(grandchild);
    expect(await proc.ended).toMatchObject({ kind: 'timeout', afterMs: LONG_MS });
    expect(await waitUntilDead(grandchild)).toBe(true);
  });

  it('a CLI that exits leaving a grandchild holding stdout: the output ends and the grandchild goes', async () => {
    const proc = runProcess(nodeScript(withSleepingGrandchild('process.exit(3);', { inheritStdout: true })));
    const lines: string[] = [];
    for await (const line of proc.lines()) lines.push(line);
    const grandchild = pidFrom(lines[0]);
    strays.push(grandchild);
    expect(await proc.ended).toMatchObject({ kind: 'exited', exitCode: 3 });
    expect(await waitUntilDead(grandchild)).toBe(true);
  });

  it('a grandchild that ignores SIGTERM is killed after the grace period', async () => {
    const proc = runProcess(nodeScript(withSleepingGrandchild(HANG, { ignoreTerm: true })));
    const grandchild = pidFrom(await firstLine(proc));
    strays.push(grandchild);
    await realPause(100); // let sh install its trap
    // a clock that moves only when the test moves it: the grace period cannot pass by itself
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let settled = false;
    const stopped = proc.stop().finally(() => (settled = true));
    await realPause(100);
    expect(isAlive(grandchild)).toBe(true); // SIGTERM went to the whole group; the grandchild ignores it
    await vi.advanceTimersByTimeAsync(KILL_GRACE_MS);
    while (!settled) {
      await vi.advanceTimersByTimeAsync(10); // the runner polls until SIGKILL has taken the group down
      await realPause(10);
    }
    vi.useRealTimers();
    expect((await stopped).kind).toBe('stopped');
    expect(await waitUntilDead(grandchild)).toBe(true);
  });

  it('stop() after a normal exit is harmless and reports the exit', async () => {
    const proc = runProcess(nodeScript("process.stdout.write('hi\\n');"));
    expect(await firstLine(proc)).toBe('hi');
    const end = await proc.ended;
    expect(await proc.stop()).toBe(end);
    expect(end).toMatchObject({ kind: 'exited', exitCode: 0, signal: null });
  });
});
