import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/cli.js');
/** The agent-collab command as npm installs it (bin/agent-collab runs the built launcher). */
export const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/agent-collab');

/**
 * stdin of a spawned process: `closed` (the default, /dev/null) or `open`, a pipe nobody writes to, as a CI runner
 * gives it (not a terminal, and a read from it would wait forever). The pipe is closed when the process ends.
 */
export type StdinMode = 'closed' | 'open';

const stdinOf = (mode: StdinMode | undefined): 'ignore' | 'pipe' => (mode === 'open' ? 'pipe' : 'ignore');

/** Runs `file` to the end; its exit code and everything it printed. */
export function runToEnd(
  file: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; stdin?: StdinMode },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: opts.cwd, env: opts.env, stdio: [stdinOf(opts.stdin), 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += String(d)));
    child.stderr!.on('data', (d: Buffer) => (stderr += String(d)));
    child.on('error', reject);
    child.on('close', (code) => {
      child.stdin?.destroy();
      resolve({ code, stdout, stderr });
    });
  });
}

export interface CliRun {
  child: ChildProcess;
  /** Resolves with the exit code (or the signal name) and everything printed. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  /** Resolves with the first NDJSON line on stdout for which `match` is true. */
  waitFor(match: (e: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

/** Runs the built CLI with its own HOME, stdin closed unless `stdin: 'open'`. */
export function runCli(
  args: string[],
  opts: { cwd: string; home: string; env?: NodeJS.ProcessEnv; stdin?: StdinMode },
): CliRun {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: opts.cwd,
    env: {
      ...process.env,
      HOME: opts.home,
      XDG_CONFIG_HOME: path.join(opts.home, '.config'),
      NO_COLOR: '1',
      ...opts.env,
    },
    stdio: [stdinOf(opts.stdin), 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: Array<{
    match: (e: Record<string, unknown>) => boolean;
    resolve: (e: Record<string, unknown>) => void;
  }> = [];
  let pending = '';
  child.stdout!.on('data', (d: Buffer) => {
    stdout += String(d);
    pending += String(d);
    let nl;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      let ev: Record<string, unknown>;
      try {
        ev = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      for (const w of [...waiters]) {
        if (w.match(ev)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(ev);
        }
      }
    }
  });
  child.stderr!.on('data', (d: Buffer) => (stderr += String(d)));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => {
      child.on('close', (code, signal) => {
        child.stdin?.destroy();
        resolve({ code, signal, stdout, stderr });
      });
    },
  );
  return {
    child,
    done,
    waitFor: (match) =>
      new Promise((resolve, reject) => {
        waiters.push({ match, resolve });
        void done.then(() =>
          reject(new Error(`the CLI exited before the awaited event; stdout:\n${stdout}\nstderr:\n${stderr}`)),
        );
      }),
  };
}
