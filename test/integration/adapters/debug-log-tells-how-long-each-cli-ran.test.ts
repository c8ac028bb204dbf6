import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliRunsInDebugLog, timeWithACliRunning } from '../../../bench/real-cli.js';
import { runProcess } from '../../../src/adapters/process-runner.js';
import { DebugLog } from '../../../src/persistence/debug-log.js';
import { nodeScript } from './process-helpers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("debug.log records each CLI's start and exit", () => {
  it('so the benchmark reads how long each CLI ran, in start order, with overlapping runs told apart by pid', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ac-cli-times-'));
    dirs.push(dir);
    const log = new DebugLog(path.join(dir, 'debug.log'), 1024 * 1024);
    const debug = (source: string, line: string): void => log.write(source, line);
    // The first CLI outlives the second (as a CLI that saves its session after answering does): it runs until the
    // test says the second has ended, however slowly the machine starts processes.
    const release = path.join(dir, 'second-ended');
    const slow = runProcess(
      nodeScript(
        `import { existsSync } from 'node:fs'; const t = setInterval(() => { if (existsSync(${JSON.stringify(release)})) clearInterval(t); }, 10);`,
        { source: 'planner/codex', debug },
      ),
    );
    const fast = runProcess(
      nodeScript('console.log(JSON.stringify({ type: "result" }));', { source: 'reviewer/claude', debug }),
    );
    // its output is read as it is taken (the runner reads no faster than its consumer)
    for await (const line of fast.lines()) expect(line).toBe('{"type":"result"}');
    await fast.ended;
    writeFileSync(release, '');
    await slow.ended;
    await log.flush();
    const text = readFileSync(path.join(dir, 'debug.log'), 'utf8');
    const [first, second, ...rest] = cliRunsInDebugLog(text);
    expect(rest).toEqual([]);
    expect(second!.ms).toBeGreaterThan(0);
    expect(second!.ms).toBeLessThan(first!.ms); // the one that kept running is told apart by its longer run
    // started in order, within the first one's run (debug.log's timestamps are whole milliseconds)
    expect(second!.startMs).toBeGreaterThanOrEqual(first!.startMs);
    expect(second!.startMs).toBeLessThanOrEqual(first!.startMs + first!.ms);
    expect(text).toMatch(/\[reviewer\/claude\] \{"type":"result"\}/); // the CLI's own lines are kept apart
  });

  it('time with a CLI running counts overlapping runs once', () => {
    expect(timeWithACliRunning([])).toBe(0);
    // 0–100 and 80–300 overlap (the first still exiting while the second starts); 400–450 stands apart
    const runs = [
      { startMs: 400, ms: 50 },
      { startMs: 0, ms: 100 },
      { startMs: 80, ms: 220 },
      { startMs: 90, ms: 10 }, // inside another run entirely
    ];
    expect(timeWithACliRunning(runs)).toBe(300 + 50);
  });
});
