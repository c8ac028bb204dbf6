import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ShellTestRunner, TEST_OUTPUT_MAX_BYTES } from '../../../src/adapters/test-runner.js';
import { isAlive, waitUntilDead } from '../adapters/process-helpers.js';

let dir: string;
let debugLines: string[];
const strays: number[] = [];

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ac-tests-'));
  debugLines = [];
});
afterEach(() => {
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

function runner(defaultCommand = 'auto', timeoutSeconds = 60): ShellTestRunner {
  return new ShellTestRunner(
    dir,
    { default_command: defaultCommand, timeout_seconds: timeoutSeconds },
    (s, l) => void debugLines.push(`[${s}] ${l}`),
  );
}

describe('test runner', () => {
  it('a passing command: passed, exit code 0, output with stdout and stderr in order, run in the repo root with CI=1', async () => {
    const out = path.join(dir, 'out', 'tests.txt');
    const r = await runner().run('echo one; echo two >&2; echo "ci=$CI pwd=$(pwd)"; read x || echo "stdin closed"', {
      fullOutputFile: out,
    });
    expect(r).toMatchObject({ passed: true, exitCode: 0, timedOut: false });
    expect(r.output).toBe(`one\ntwo\nci=1 pwd=${dir}\nstdin closed\n`);
    expect(readFileSync(out, 'utf8')).toBe(r.output);
    expect(r.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('a failing command: not passed, with its exit code', async () => {
    const r = await runner().run('echo "1 failed"; exit 3', { fullOutputFile: null });
    expect(r).toMatchObject({ passed: false, exitCode: 3, timedOut: false, output: '1 failed\n' });
  });

  it('a command that is not found fails with the shell’s message', async () => {
    const r = await runner().run('no-such-test-tool-xyz --run', { fullOutputFile: null });
    expect(r.passed).toBe(false);
    expect(r.exitCode).toBe(127);
    expect(r.output).toMatch(/no-such-test-tool-xyz.*not found/);
  });

  it('the full output goes to the file while the returned output stays bounded (head + tail)', async () => {
    const out = path.join(dir, 'full.txt');
    const r = await runner().run(
      'i=0; while [ $i -lt 20000 ]; do echo "line $i of the test output"; i=$((i+1)); done; exit 1',
      { fullOutputFile: out },
    );
    expect(r.passed).toBe(false);
    const full = readFileSync(out, 'utf8');
    expect(full.split('\n').length).toBe(20_001);
    expect(statSync(out).size).toBeGreaterThan(400_000);
    expect(Buffer.byteLength(r.output)).toBeLessThanOrEqual(TEST_OUTPUT_MAX_BYTES + 100);
    expect(r.output.startsWith('line 0 of the test output\n')).toBe(true);
    expect(r.output.endsWith('line 19999 of the test output\n')).toBe(true);
    expect(r.output).toMatch(/…\[\d+ bytes truncated\]…/);
  });

  it('a timeout stops the command and its `sleep 1000` grandchild', async () => {
    const out = path.join(dir, 'timeout.txt');
    const r = await runner('auto', 1).run('sleep 1000 & echo "grandchild $!"; wait', { fullOutputFile: out });
    const pid = Number(/grandchild (\d+)/.exec(r.output)?.[1]);
    strays.push(pid);
    expect(r).toMatchObject({ passed: false, exitCode: null, timedOut: true });
    expect(r.output).toContain('timed out after 1 s');
    expect(readFileSync(out, 'utf8')).toContain('timed out after 1 s');
    expect(await waitUntilDead(pid)).toBe(true);
    expect(isAlive(pid)).toBe(false);
  });

  it('stop() ends a running command', async () => {
    const r = runner();
    const run = r.run('sleep 1000', { fullOutputFile: null });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await r.stop();
    const result = await run;
    expect(result).toMatchObject({ passed: false, exitCode: null, timedOut: false });
    expect(result.output).toContain('was stopped');
  });

  it('a run aborted while its output file is being opened never starts the command', async () => {
    const marker = path.join(dir, 'ran');
    const abort = new AbortController();
    const run = runner().run(`touch '${marker}'`, {
      fullOutputFile: path.join(dir, 'out', 'tests.txt'),
      signal: abort.signal,
    });
    abort.abort(); // the runner is still opening the output file: nothing has been spawned yet
    const result = await run;
    expect(result).toMatchObject({ passed: false, exitCode: null, timedOut: false });
    expect(result.output).toContain('stopped before it started');
    expect(() => statSync(marker)).toThrow();
  });

  it('aborting the signal stops a running command and its `sleep 1000` grandchild', async () => {
    const abort = new AbortController();
    const run = runner().run('sleep 1000 & echo "pid $!"; wait', {
      fullOutputFile: path.join(dir, 'tests.txt'),
      signal: abort.signal,
    });
    let pid = 0;
    while (!pid) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const written = existsSync(path.join(dir, 'tests.txt')) ? readFileSync(path.join(dir, 'tests.txt'), 'utf8') : '';
      pid = Number(/pid (\d+)/.exec(written)?.[1] ?? 0);
    }
    strays.push(pid);
    abort.abort();
    const result = await run;
    expect(result).toMatchObject({ passed: false, exitCode: null, timedOut: false });
    expect(result.output).toContain('was stopped');
    expect(await waitUntilDead(pid)).toBe(true);
  });

  it('resolve(): the configured command, else the detected one, else none', async () => {
    expect(await runner('make check').resolve()).toEqual({ command: 'make check', source: 'config' });
    expect(await runner('auto').resolve()).toBeNull();
    writeFileSync(path.join(dir, 'go.mod'), 'module x\n');
    expect(await runner('auto').resolve()).toEqual({ command: 'go test ./...', source: 'detected' });
    expect(await runner('AUTO').resolve()).toEqual({ command: 'go test ./...', source: 'detected' });
  });
});
