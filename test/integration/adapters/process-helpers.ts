// Helpers for the process-runner tests: inline node child scripts and a liveness check that ignores zombies.
import { readFileSync } from 'node:fs';
import type { ProcessSpec } from '../../../src/adapters/process-runner.js';

/** A node child running `code` (an ES module body), for `runProcess`. */
export function nodeScript(code: string, extra: Partial<ProcessSpec> = {}): ProcessSpec {
  return {
    command: process.execPath,
    args: ['--input-type=module', '-e', code],
    cwd: process.cwd(),
    debug: () => undefined,
    source: 'test',
    ...extra,
  };
}

/** Child script body: starts `sleep 1000` (same process group), prints its pid, then runs `rest`. */
export function withSleepingGrandchild(
  rest: string,
  opts: { inheritStdout?: boolean; ignoreTerm?: boolean } = {},
): string {
  const stdio = opts.inheritStdout ? "['ignore', 'inherit', 'inherit']" : "'ignore'";
  const [cmd, args] = opts.ignoreTerm ? ["'sh'", `['-c', 'trap "" TERM; sleep 1000']`] : ["'sleep'", "['1000']"];
  return `
    import { spawn } from 'node:child_process';
    const g = spawn(${cmd}, ${args}, { stdio: ${stdio} });
    process.stdout.write('grandchild ' + g.pid + '\\n');
    ${rest}
  `;
}

/** Alive = signal 0 succeeds and it is not a zombie waiting for a parent that never reaps it. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true; // no /proc: trust kill(0)
  }
}

export async function waitUntilDead(pid: number, ms = 3_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return !isAlive(pid);
}

export function pidFrom(line: string | undefined): number {
  const m = /^grandchild (\d+)$/.exec(line ?? '');
  if (!m?.[1]) throw new Error(`expected "grandchild <pid>", got ${JSON.stringify(line)}`);
  return Number(m[1]);
}
