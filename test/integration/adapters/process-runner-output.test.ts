import { describe, expect, it } from 'vitest';
import { runProcess } from '../../../src/adapters/process-runner.js';
import { nodeScript } from './process-helpers.js';

describe('process runner: output', () => {
  it('streams stdout line by line and passes every raw line to the debug sink', async () => {
    const seen: [string, string][] = [];
    const code = "process.stdout.write('a\\nb\\r\\n'); process.stderr.write('warn\\n'); process.stdout.write('last');";
    const proc = runProcess(nodeScript(code, { source: 'planner/codex', debug: (s, l) => seen.push([s, l]) }));
    const lines: string[] = [];
    for await (const line of proc.lines()) lines.push(line);
    const end = await proc.ended;
    expect(lines).toEqual(['a', 'b', 'last']);
    expect(end).toEqual({ kind: 'exited', exitCode: 0, signal: null, stderr: 'warn\n' });
    expect(seen.filter(([s]) => s === 'planner/codex').map(([, l]) => l)).toEqual(['a', 'b', 'last']);
    expect(seen).toContainEqual(['planner/codex stderr', 'warn']);
  });

  it('stop() ends the run when its consumer stopped taking lines with output still in the pipe', async () => {
    // 4 MB of lines, more than the pipe holds: the CLI (or its exit) waits on a consumer that read one line and
    // went away without closing the iterator, as a round does once it decided to stop the CLI.
    const code = "const l = 'x'.repeat(1023) + '\\n'; for (let i = 0; i < 4096; i++) process.stdout.write(l);";
    const proc = runProcess(nodeScript(code, {}));
    const it = proc.lines()[Symbol.asyncIterator]();
    expect((await it.next()).done).toBe(false);
    const end = await proc.stop();
    expect(['stopped', 'exited']).toContain(end.kind);
  });

  it('records in the debug sink when the CLI started and how and when it ended', async () => {
    const seen: [string, string][] = [];
    const proc = runProcess(
      nodeScript('process.exitCode = 3;', { source: 'reviewer/claude', debug: (s, l) => seen.push([s, l]) }),
    );
    await proc.ended;
    const lifecycle = seen.filter(([s]) => s === 'reviewer/claude process').map(([, l]) => l);
    expect(lifecycle).toHaveLength(2);
    expect(lifecycle[0]).toBe(`started node (pid ${proc.pid})`);
    const ms = Number(/^node \(pid (\d+)\) exited with code 3 after (\d+\.\d) ms$/.exec(lifecycle[1] ?? '')?.[2]);
    expect(ms).toBeGreaterThan(0);
  });

  it('keeps only the head and tail of a large stderr, with a marker', async () => {
    const code = "for (let i = 0; i < 5000; i++) process.stderr.write('line ' + i + ' ' + 'x'.repeat(40) + '\\n');";
    const proc = runProcess(nodeScript(code, { stderrMaxBytes: 2_000 }));
    const end = await proc.ended;
    if (end.kind !== 'exited') throw new Error(`unexpected end ${end.kind}`);
    expect(Buffer.byteLength(end.stderr)).toBeLessThanOrEqual(2_100);
    expect(end.stderr.startsWith('line 0 ')).toBe(true);
    expect(end.stderr).toMatch(/…\[\d+ bytes truncated\]…/);
    expect(end.stderr.trimEnd().endsWith(`line 4999 ${'x'.repeat(40)}`)).toBe(true);
  });

  it('reports a missing binary as such', async () => {
    const proc = runProcess({
      command: 'agent-collab-no-such-cli',
      args: ['x'],
      cwd: process.cwd(),
      debug: () => undefined,
      source: 't',
    });
    expect(proc.pid).toBeUndefined();
    const lines: string[] = [];
    for await (const line of proc.lines()) lines.push(line);
    expect(lines).toEqual([]);
    expect(await proc.ended).toEqual({ kind: 'missing_binary', command: 'agent-collab-no-such-cli' });
  });

  it('reports a missing working directory without calling it a missing binary', async () => {
    const proc = runProcess(nodeScript('', { cwd: '/nonexistent/agent-collab-test' }));
    expect(await proc.ended).toMatchObject({ kind: 'spawn_failed' });
  });

  it('reports the exit code and signal of a CLI that fails', async () => {
    const proc = runProcess(nodeScript("process.stderr.write('boom\\n'); process.exit(2);"));
    expect(await proc.ended).toEqual({ kind: 'exited', exitCode: 2, signal: null, stderr: 'boom\n' });
    const killed = runProcess(nodeScript("process.kill(process.pid, 'SIGKILL');"));
    expect(await killed.ended).toMatchObject({ kind: 'exited', exitCode: null, signal: 'SIGKILL' });
  });
});
