// The one way adapters run a CLI: stdin closed (or the prompt written to it, then closed), own process group, stdout streamed line by line, stderr kept
// bounded, wall and idle timeouts, and a stop that takes the whole process group down.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { terminateGroup } from './process-group.js';
import { boundedLines } from './bounded-lines.js';
import { adoptGroup, withOwnerTag } from './owned-processes.js';
import { HeadTailBuffer } from './truncate.js';
import { openOutputSpool, type OutputSpool } from './output-spool.js';

/** Receives every raw output line (`source` is e.g. `planner/codex` or `planner/codex stderr`). */
export type DebugSink = (source: string, line: string) => void;

export const DEFAULT_WALL_TIMEOUT_MS = 30 * 60_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 5 * 60_000;
export const DEFAULT_STDERR_MAX_BYTES = 16 * 1024;
/** Between SIGTERM and SIGKILL to the process group. */
export const KILL_GRACE_MS = 2_000;
/** How long the output pipes may stay open once the CLI has exited (someone outside its group may hold them). */
export const PIPE_GRACE_MS = 2_000;

export interface ProcessSpec {
  command: string;
  args: string[];
  cwd: string;
  /** Replaces the inherited environment when given. */
  env?: NodeJS.ProcessEnv;
  debug: DebugSink;
  /** Label for the debug sink. */
  source: string;
  /**
   * Written to the CLI's stdin, which is then closed (default: stdin closed at once). The prompt goes this way: an
   * argument is limited to 128 KB by the kernel (a larger one fails with E2BIG).
   */
  input?: string;
  wallTimeoutMs?: number;
  idleTimeoutMs?: number;
  stderrMaxBytes?: number;
  /** Sees each stderr line as it comes (a CLI that says something useful only there). */
  onStderrLine?: (line: string) => void;
  /**
   * stdout goes to an unlinked temp file read at the consumer's pace, not to a pipe: for a CLI that loses what the
   * pipe has not taken when it exits (claude; output-spool.ts).
   */
  stdoutToFile?: boolean;
}

/** How a run ended. `stderr` is bounded (head + tail). */
export type ProcessEnd =
  | { kind: 'exited'; exitCode: number | null; signal: string | null; stderr: string }
  | { kind: 'missing_binary'; command: string }
  | { kind: 'spawn_failed'; message: string }
  | { kind: 'timeout'; afterMs: number; stderr: string }
  | { kind: 'idle'; afterMs: number; stderr: string }
  | { kind: 'stopped'; stderr: string };

export interface RunningProcess {
  readonly pid: number | undefined;
  /**
   * stdout, one line at a time (without the newline). Ends when the output is closed, or a short grace after the
   * CLI has exited when something outside its group still holds the pipe.
   */
  lines(): AsyncIterable<string>;
  /** Settles once the process has ended and its group is gone; never rejects. */
  readonly ended: Promise<ProcessEnd>;
  /** SIGTERM to the process group, SIGKILL after KILL_GRACE_MS; resolves when the run has ended (plus the pipe grace at most). */
  stop(): Promise<ProcessEnd>;
}

export function runProcess(spec: ProcessSpec): RunningProcess {
  if (!existsSync(spec.cwd)) {
    const ended = Promise.resolve<ProcessEnd>({
      kind: 'spawn_failed',
      message: `working directory ${spec.cwd} does not exist`,
    });
    return { pid: undefined, lines: emptyLines, ended, stop: () => ended };
  }
  const stderr = new HeadTailBuffer(spec.stderrMaxBytes ?? DEFAULT_STDERR_MAX_BYTES);
  const spool: OutputSpool | null = spec.stdoutToFile ? openOutputSpool() : null;
  const child: ResultPromise = execa(spec.command, spec.args, {
    cwd: spec.cwd,
    // The owner tag lets the watchdog and the next start find whatever this child starts (owned-processes.ts).
    env: withOwnerTag(spec.env ?? process.env),
    extendEnv: false,
    stdin: spec.input === undefined ? 'ignore' : 'pipe',
    // execa takes any fd at runtime; its types list only 1 and 2
    stdout: spool ? (spool.writeFd as 1) : 'pipe',
    stderr: 'pipe',
    detached: true,
    buffer: false,
    reject: false,
    encoding: 'utf8',
  });
  const pgid = child.pid;
  spool?.closeWriteEnd(); // the child has its own copy
  if (pgid === undefined) spool?.writerDone(); // nothing started, nothing will write
  const stdoutStream = spool ? spool.stream : child.stdout;
  if (child.stdin) {
    // A CLI that exits without reading it all (a usage error) breaks the pipe; how it ended says why.
    child.stdin.on('error', () => undefined);
    child.stdin.end(spec.input);
  }
  const startedAt = performance.now();
  // When each CLI started and ended, next to its output (`<source> process`, so the raw output lines stay apart).
  const lifecycle = `${spec.source} process`;
  const name = path.basename(spec.command);
  // Watched from now on: if agent-collab dies, even by SIGKILL, the watchdog takes the group down at once.
  const release = pgid === undefined ? () => undefined : adoptGroup(pgid, 0);
  if (pgid !== undefined) {
    spec.debug(lifecycle, `started ${name} (pid ${pgid})`);
  }

  let endReason: 'timeout' | 'idle' | 'stopped' | null = null;
  let leaderExited = false;
  let groupGone: Promise<void> | null = null;
  const killGroup = (): Promise<void> => {
    if (pgid === undefined) return Promise.resolve();
    // Once the group is gone nothing of it writes to the spool any more: its reader ends at the file's end.
    groupGone ??= terminateGroup(pgid, KILL_GRACE_MS)
      .finally(release)
      .finally(() => spool?.writerDone());
    return groupGone;
  };
  const terminate = (reason: 'timeout' | 'idle' | 'stopped'): Promise<void> => {
    if (!leaderExited) endReason ??= reason;
    return killGroup();
  };

  const wallMs = spec.wallTimeoutMs ?? DEFAULT_WALL_TIMEOUT_MS;
  const idleMs = spec.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const wallTimer = setTimeout(() => void terminate('timeout'), wallMs);
  let idleTimer = setTimeout(() => void terminate('idle'), idleMs);
  const activity = (): void => {
    clearTimeout(idleTimer);
    if (!leaderExited && endReason === null) idleTimer = setTimeout(() => void terminate('idle'), idleMs);
  };
  const readers: { close(): void }[] = [];
  let pipeTimer: NodeJS.Timeout | undefined;
  /** Whether stdout's reader waits for the CLI's output (not for its own consumer, which may be slow). */
  let waitingForOutput = true;
  /** Set by stop(): nobody takes the rest of the output, so nothing waits for a consumer any more. */
  let stopRequested = false;
  let closePipesNow: (() => void) | null = null;
  // When the CLI exits, whatever it left in its group (tool shells, their children) goes too; that also closes
  // the output pipes they may still hold. A process that escaped into a group of its own is not chased, but its
  // hold on the pipes must not keep the run open: after a grace for the last output, they are closed from here.
  child.once('exit', (code: number | null, signal: NodeJS.Signals | null) => {
    leaderExited = true;
    spec.debug(
      lifecycle,
      `${name} (pid ${pgid}) exited with ${signal ?? `code ${code}`} after ${(performance.now() - startedAt).toFixed(1)} ms`,
    );
    clearTimeout(wallTimer);
    clearTimeout(idleTimer);
    void killGroup();
    const closePipes = (): void => {
      // Output the CLI left in the pipe is not lost while agent-collab's own consumer is slow to take it (unless the
      // run was stopped: its consumer may be gone, and the run's end, which waits for the pipes, would never come).
      // A spool is read to its end whatever the consumer does (it ends by itself once the group is gone).
      const unread = stdoutStream !== null && !stdoutStream.readableEnded && !stdoutStream.destroyed;
      if (!stopRequested && unread && (spool !== null || !waitingForOutput)) {
        pipeTimer = setTimeout(closePipes, PIPE_GRACE_MS);
        return;
      }
      if (!stdoutStream?.readableEnded || !child.stderr?.readableEnded)
        spec.debug(lifecycle, `${name} (pid ${pgid}) left its output open; no longer read`);
      for (const r of readers) r.close();
      stdoutStream?.destroy();
      child.stderr?.destroy();
    };
    closePipesNow = closePipes;
    pipeTimer = setTimeout(closePipes, PIPE_GRACE_MS);
  });

  // stderr is read as fast as it comes (nothing waits on it), each line bounded like stdout's: a CLI that prints
  // one 100 MB line there costs a few MB here. debug.log gets each line (capped there), the end a head and tail.
  let stderrRead: Promise<void> = Promise.resolve();
  if (child.stderr) {
    const stderrStream = child.stderr;
    readers.push({ close: () => stderrStream.destroy() });
    stderrRead = (async () => {
      try {
        for await (const line of boundedLines(stderrStream, { onChunk: activity })) {
          stderr.append(`${line}\n`);
          spec.debug(`${spec.source} stderr`, line);
          spec.onStderrLine?.(line);
        }
      } catch {
        // the pipe broke or was closed from here: the process is going away, `ended` tells how
      }
    })();
  }
  // stdout is read only as fast as its lines are taken (backpressure on the CLI's pipe), each line bounded.
  let stdoutLines: AsyncIterator<string> | null = null;
  if (stdoutStream) {
    const stdout = stdoutStream;
    readers.push({ close: () => stdout.destroy() });
    const lines = boundedLines(stdout, {
      onChunk: activity,
      waiting: (w) => {
        waitingForOutput = w;
      },
    });
    stdoutLines = (async function* () {
      for await (const line of lines) {
        spec.debug(spec.source, line);
        yield line;
      }
    })();
  }

  const ended: Promise<ProcessEnd> = (async () => {
    const result = await child;
    clearTimeout(wallTimer);
    clearTimeout(idleTimer);
    clearTimeout(pipeTimer);
    await killGroup();
    await stderrRead; // its last lines are in `stderr` before the end is told
    if (pgid === undefined) {
      return result.code === 'ENOENT'
        ? { kind: 'missing_binary', command: spec.command }
        : { kind: 'spawn_failed', message: result.shortMessage ?? `could not start ${spec.command}` };
    }
    const text = stderr.toString();
    if (endReason === 'timeout') return { kind: 'timeout', afterMs: wallMs, stderr: text };
    if (endReason === 'idle') return { kind: 'idle', afterMs: idleMs, stderr: text };
    if (endReason === 'stopped') return { kind: 'stopped', stderr: text };
    return { kind: 'exited', exitCode: result.exitCode ?? null, signal: result.signal ?? null, stderr: text };
  })();

  async function* lines(): AsyncGenerator<string> {
    if (!stdoutLines) return;
    try {
      for (;;) {
        let next: IteratorResult<string>;
        try {
          next = await stdoutLines.next();
        } catch {
          return; // the pipe broke: the process is going away, `ended` tells how
        }
        if (next.done) return;
        yield next.value;
      }
    } finally {
      // Nobody takes the rest: the pipe is closed, so neither the CLI nor the end of the run waits on it.
      waitingForOutput = true;
      stdoutStream?.destroy();
    }
  }

  return {
    pid: pgid,
    lines,
    ended,
    stop: async () => {
      stopRequested = true;
      await terminate('stopped');
      if (closePipesNow) {
        clearTimeout(pipeTimer);
        closePipesNow();
      }
      return ended;
    },
  };
}

async function* emptyLines(): AsyncGenerator<string> {}
