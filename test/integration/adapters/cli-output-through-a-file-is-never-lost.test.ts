// claude (a Bun binary) writes its stdout without blocking and exits with what the pipe did not take still queued:
// that output is lost. A stand-in does the same (non-blocking writes, exit at the first EAGAIN). Through a pipe
// whose reader is slow the end of its output (the result line) is lost; with `stdoutToFile` every line arrives, in
// order, and no temp file is left behind.
import { readdirSync } from 'node:fs';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../../../src/adapters/process-runner.js';
import { nodeScript } from './process-helpers.js';

/** 64 lines of 64 KB (4 MB, far more than a pipe holds), then RESULT; exits as soon as a write would block. */
const LOSSY_WRITER = `
  import { openSync, writeSync, constants } from 'node:fs';
  const out = openSync('/proc/self/fd/1', constants.O_WRONLY | constants.O_NONBLOCK);
  const lines = [];
  for (let i = 0; i < 64; i++) lines.push(String(i).padStart(4, '0') + ' ' + 'x'.repeat(64 * 1024) + '\\n');
  lines.push('RESULT\\n');
  for (const l of lines) {
    let buf = Buffer.from(l);
    while (buf.length > 0) {
      try {
        buf = buf.subarray(writeSync(out, buf));
      } catch (e) {
        if (e.code === 'EAGAIN') process.exit(0); // the rest stays queued, and is lost
        throw e;
      }
    }
  }
`;

async function slowlyRead(stdoutToFile: boolean): Promise<string[]> {
  const proc = runProcess(nodeScript(LOSSY_WRITER, { stdoutToFile }));
  await proc.ended; // the reader is slow: it starts only once the CLI has exited
  const lines: string[] = [];
  for await (const line of proc.lines()) lines.push(line.slice(0, 8));
  return lines;
}

const spools = (): string[] => readdirSync(os.tmpdir()).filter((n) => n.startsWith('agent-collab-out-'));

describe('a CLI that loses unwritten output when it exits', () => {
  it('through a pipe read slowly, its last lines and result are lost (why claude writes to a file)', async () => {
    const lines = await slowlyRead(false);
    expect(lines).not.toContain('RESULT');
    expect(lines.length).toBeLessThan(65);
  });

  it('with stdoutToFile, every line arrives in order with the result, and no temp file is left', async () => {
    const before = spools();
    const lines = await slowlyRead(true);
    expect(lines).toHaveLength(65);
    expect(lines.slice(0, 64).map((l) => Number(l.slice(0, 4)))).toEqual([...Array(64).keys()]);
    expect(lines[64]).toBe('RESULT');
    expect(spools()).toEqual(before);
  });
});
