// A pipe is written asynchronously: when a run ends before its reader has read everything, the reader still gets
// every line, the last one included, and the exit code is the run's.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { tempRepoWithFakeScript } from '../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

/** Runs the built CLI with its stdout read only after `delayMs`, then slowly. */
function runWithSlowReader(
  args: string[],
  cwd: string,
  home: string,
  delayMs: number,
): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const chunks: Buffer[] = [];
    child.stdout.pause();
    setTimeout(() => {
      child.stdout.on('data', (d: Buffer) => {
        chunks.push(d);
        child.stdout.pause();
        setTimeout(() => child.stdout.resume(), 2);
      });
      child.stdout.resume();
    }, delayMs);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(chunks).toString('utf8') }));
  });
}

describe('the end of a run', () => {
  it('waits until a slow reader has every line of a long --json stream', async () => {
    // ~6,000 streamed lines of the planner: far more than a pipe holds (64 KB), so most are written after the run ends.
    const repo = tempRepoWithFakeScript({
      rules: [
        {
          when: { kind: 'write_plan' },
          do: {
            stream: { lines: 6000, perChunk: 500, text: 'streamed row {n} with some padding to make it longer' },
            text: '## Steps\n1. [ ] Nothing\n',
          },
        },
        { when: { kind: 'review' }, do: { verdict: 'APPROVED', text: 'Fine.' } },
      ],
    });
    cleanup = repo.cleanup;
    const r = await runWithSlowReader(
      ['run', '--goal', 'g', '--auto', '--auto-approve', '--json'],
      repo.dir,
      repo.home,
      1500,
    );
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(r.stdout.length).toBeGreaterThan(256 * 1024);
    expect(lines.filter((l) => l.includes('streamed row')).length).toBe(6000);
    expect(JSON.parse(lines.at(-1) ?? '{}')).toMatchObject({ event: 'done', phase: 'DONE', exit_code: 0 });
  });
});
