/**
 * Test-side helpers for the e2e tests: find the installed CLIs (from the globalSetup, or by running the installer
 * when the file runs without it) and run a CLI the way agent-collab must: stdin ignored, own process group,
 * JSON lines parsed, group killed on timeout or stop.
 */
import { spawn } from 'node:child_process';
import { inject } from 'vitest';
import { groupAlive as liveGroupMember } from '../../src/adapters/process-group.js';
import { installE2eClis, type E2eClis } from './install.js';

let cached: Promise<E2eClis> | undefined;

/** The installed CLIs, or why they are not available (tests skip with that reason). */
export function e2eClis(): Promise<E2eClis> {
  const provided = inject('agentCollabE2eClis') as E2eClis | undefined;
  if (provided !== undefined) return Promise.resolve(provided);
  cached ??= installE2eClis();
  return cached;
}

export type JsonLine = Record<string, unknown>;

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout lines that parsed as JSON objects. */
  lines: JsonLine[];
  /** Wall time from spawn to exit. */
  ms: number;
  /** Killed by the runner's timeout. */
  timedOut: boolean;
}

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Wall timeout; the process group gets SIGTERM, then SIGKILL 2 s later. Default 20 s. */
  timeoutMs?: number;
  onLine?: (line: JsonLine) => void;
}

export interface RunningCli {
  pid: number;
  /** Resolves when the process has exited (its group is killed afterwards, to reap leftovers). */
  done: Promise<CliResult>;
  /** Parsed JSON lines so far. */
  lines: JsonLine[];
  /** SIGTERM to the group, SIGKILL 2 s later if still running; resolves with the result. */
  stop(): Promise<CliResult>;
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Whether any process of the group `pid` is still running. Zombies do not count: a CLI's grandchild (codex's
 * native binary under its node wrapper) is reparented to init when killed, and this container's init reaps late,
 * so signal 0 alone reports a dead group alive for a while (seen when the e2e files run side by side).
 */
export function groupAlive(pid: number): boolean {
  return liveGroupMember(pid);
}

export function startCli(file: string, args: string[], opts: RunOptions): RunningCli {
  const t0 = Date.now();
  const child = spawn(file, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const lines: JsonLine[] = [];
  let stdout = '';
  let stderr = '';
  let partial = '';
  let timedOut = false;
  let exited = false;
  let killTimer: NodeJS.Timeout | undefined;

  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    partial += d;
    let nl: number;
    while ((nl = partial.indexOf('\n')) >= 0) {
      const line = partial.slice(0, nl).trim();
      partial = partial.slice(nl + 1);
      if (!line.startsWith('{')) continue;
      try {
        const obj = JSON.parse(line) as JsonLine;
        lines.push(obj);
        opts.onLine?.(obj);
      } catch {
        // not JSON
      }
    }
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    if (stderr.length < 1_000_000) stderr += d;
  });

  const terminate = () => {
    if (exited || child.pid === undefined) return;
    killGroup(child.pid, 'SIGTERM');
    killTimer ??= setTimeout(() => killGroup(child.pid!, 'SIGKILL'), 2000);
  };
  const wall = setTimeout(() => {
    timedOut = true;
    terminate();
  }, opts.timeoutMs ?? 20_000);

  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', (e) => {
      clearTimeout(wall);
      reject(e);
    });
    let ms = 0;
    child.on('exit', () => {
      exited = true;
      ms = Date.now() - t0;
      // leftovers in the group (they could also hold the pipes open and delay 'close')
      if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
    });
    child.on('close', (code, signal) => {
      clearTimeout(wall);
      if (killTimer) clearTimeout(killTimer);
      resolve({ code, signal, stdout, stderr, lines, ms: ms || Date.now() - t0, timedOut });
    });
  });

  return {
    pid: child.pid ?? -1,
    done,
    lines,
    stop() {
      terminate();
      return done;
    },
  };
}

export function runCli(file: string, args: string[], opts: RunOptions): Promise<CliResult> {
  return startCli(file, args, opts).done;
}

/** Polls `cond` every 25 ms until it is true or `timeoutMs` passes; returns whether it became true. */
export async function waitFor(cond: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return cond();
}

/** A compact description of a run for assertion messages. */
export function describeRun(r: CliResult): string {
  return `exit=${r.code} signal=${r.signal} timedOut=${r.timedOut} ms=${r.ms}\nstdout:\n${r.stdout.slice(-4000)}\nstderr:\n${r.stderr.slice(-2000)}`;
}
