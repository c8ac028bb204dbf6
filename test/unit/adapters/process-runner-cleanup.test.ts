import { afterEach, describe, expect, it } from 'vitest';
import { runProcess, type RunningProcess } from '../../../src/adapters/process-runner.js';
import { isAlive, nodeScript, pidFrom, waitUntilDead, withSleepingGrandchild } from './process-helpers.js';

const HANG = 'setInterval(() => {}, 1000);';
const strays: number[] = [];

async function firstLine(proc: RunningProcess): Promise<string | undefined> {
  for await (const line of proc.lines()) return line;
  return undefined;
}

afterEach(() => {
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
    // The timeouts leave a loaded machine (parallel test workers on 2 cores) time to start node and print.
    const proc = runProcess(nodeScript(withSleepingGrandchild(HANG), { idleTimeoutMs: 1_000 }));
    const grandchild = pidFrom(await firstLine(proc));
    strays.push(grandchild);
    const end = await proc.ended;
    expect(end).toMatchObject({ kind: 'idle', afterMs: 1_000 });
    expect(await waitUntilDead(grandchild)).toBe(true);
  });

  it('a wall timeout ends a CLI that keeps talking', async () => {
    const talk = "setInterval(() => process.stdout.write('tick\\n'), 50);";
    const proc = runProcess(nodeScript(withSleepingGrandchild(talk), { wallTimeoutMs: 1_500, idleTimeoutMs: 1_000 }));
    const lines: string[] = [];
    for await (const line of proc.lines()) lines.push(line);
    const grandchild = pidFrom(lines[0]);
    strays.push(grandchild);
    expect(lines.length).toBeGreaterThan(3); // it kept talking, so only the wall timeout could end it
    expect(await proc.ended).toMatchObject({ kind: 'timeout', afterMs: 1_500 });
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
    await new Promise((r) => setTimeout(r, 100)); // let sh install its trap
    const started = Date.now();
    expect((await proc.stop()).kind).toBe('stopped');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
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
