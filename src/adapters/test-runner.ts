// Runs the repo's test command: `sh -c` in the repo root through the shared process runner (own process group,
// timeout, SIGTERM→SIGKILL), stdin closed, CI=1. The full combined output is streamed to a file; the caller gets a
// bounded head + tail.
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import type { TestRunner, TestRunResult } from '../core/ports.js';
import { detectTestCommand } from './test-command.js';
import { runProcess, type DebugSink, type ProcessEnd, type RunningProcess } from './process-runner.js';
import { HeadTailBuffer } from './truncate.js';
import { BWRAP, bwrapArgs, type AgentConfinement } from './confinement/index.js';
import { patternRedactor, type Redactor } from '../core/redact.js';

/** How much of the test output the result carries (prompts, UI); the rest is only in the full output file. */
export const TEST_OUTPUT_MAX_BYTES = 16 * 1024;

export interface TestSettings {
  /** `[test] default_command`: "auto" = detect from the repo's files. */
  default_command: string;
  timeout_seconds: number;
}

const SOURCE = 'tests';

/** A sink for the full output: a file when asked for, with backpressure; nothing otherwise. */
class OutputFile {
  private constructor(private readonly stream: WriteStream | null) {}

  static async open(file: string | null, debug: DebugSink): Promise<OutputFile> {
    if (file === null) return new OutputFile(null);
    try {
      await mkdir(path.dirname(file), { recursive: true });
      const stream = createWriteStream(file);
      await once(stream, 'open');
      stream.on('error', (err) => debug(SOURCE, `writing ${file} failed: ${err.message}`));
      return new OutputFile(stream);
    } catch (err) {
      debug(SOURCE, `cannot write the test output to ${file}: ${(err as Error).message}`);
      return new OutputFile(null);
    }
  }

  async write(text: string): Promise<void> {
    if (this.stream && !this.stream.destroyed && !this.stream.write(text)) {
      await Promise.race([once(this.stream, 'drain'), once(this.stream, 'close')]);
    }
  }

  async close(): Promise<void> {
    if (!this.stream || this.stream.destroyed) return;
    const closed = once(this.stream, 'close').catch(() => undefined);
    this.stream.end();
    await closed;
  }
}

function describeEnd(end: ProcessEnd, timeoutSeconds: number): string | null {
  switch (end.kind) {
    case 'timeout':
    case 'idle':
      return `[agent-collab] the test command timed out after ${timeoutSeconds} s and was stopped; raise [test] timeout_seconds if it needs longer`;
    case 'stopped':
      return '[agent-collab] the test command was stopped';
    case 'missing_binary':
      return `[agent-collab] could not run the test command: ${end.command} was not found`;
    case 'spawn_failed':
      return `[agent-collab] could not run the test command: ${end.message}`;
    default:
      return end.exitCode === null ? `[agent-collab] the test command was killed by ${end.signal ?? 'a signal'}` : null;
  }
}

export class ShellTestRunner implements TestRunner {
  private readonly running = new Set<RunningProcess>();

  constructor(
    private readonly repoRoot: string,
    private readonly settings: TestSettings,
    private readonly debug: DebugSink,
    /** `[safety] sandbox = "on"`: the test command runs in the same bubblewrap box as a write turn. */
    private readonly confinement: AgentConfinement | null = null,
    /** The output file and the bounded output are redacted line by line. */
    private readonly redactor: Redactor = patternRedactor,
  ) {}

  /** `sh -c <command>`, wrapped in bubblewrap when confined; a string says why it cannot run. */
  private async launch(script: string): Promise<{ command: string; args: string[] } | string> {
    const args = ['-c', script];
    if (this.confinement === null) return { command: 'sh', args };
    const problem = await this.confinement.check();
    if (problem !== null) return problem;
    const spec = {
      repo: this.repoRoot,
      workdir: this.confinement.workdir,
      ...(process.env.HOME ? { home: process.env.HOME } : {}),
    };
    return { command: BWRAP, args: bwrapArgs(spec, 'sh', args) };
  }

  async resolve(): Promise<{ command: string; source: 'config' | 'detected' } | null> {
    const configured = this.settings.default_command.trim();
    if (configured && configured.toLowerCase() !== 'auto') return { command: configured, source: 'config' };
    const detected = detectTestCommand(this.repoRoot);
    return detected === null ? null : { command: detected, source: 'detected' };
  }

  async run(command: string, opts: { fullOutputFile: string | null; signal?: AbortSignal }): Promise<TestRunResult> {
    const started = Date.now();
    const timeoutMs = this.settings.timeout_seconds * 1000;
    const out = await OutputFile.open(opts.fullOutputFile, this.debug);
    const bounded = new HeadTailBuffer(TEST_OUTPUT_MAX_BYTES);
    // A stop() that came while the output file was opened found nothing to stop: the signal tells.
    if (opts.signal?.aborted) {
      const note = '[agent-collab] the test command was stopped before it started\n';
      await out.write(note);
      await out.close();
      this.debug(SOURCE, `\`${command}\` not started: stopped`);
      return { passed: false, exitCode: null, timedOut: false, durationMs: Date.now() - started, output: note };
    }
    // stderr joins stdout inside the shell, so the output keeps the order in which it was written.
    const launch = await this.launch(`exec 2>&1\n${command}`);
    if (typeof launch === 'string') {
      const note = `[agent-collab] the test command was not run: ${launch}\n`;
      await out.write(note);
      await out.close();
      this.debug(SOURCE, `\`${command}\` not started: ${launch}`);
      return { passed: false, exitCode: null, timedOut: false, durationMs: Date.now() - started, output: note };
    }
    this.debug(SOURCE, `running \`${command}\` in ${this.repoRoot}${this.confinement ? ' (confined)' : ''}`);
    const proc = runProcess({
      command: launch.command,
      args: launch.args,
      cwd: this.repoRoot,
      env: { ...process.env, CI: '1' },
      debug: () => undefined, // the output goes to its own file, not debug.log
      source: SOURCE,
      wallTimeoutMs: timeoutMs,
      idleTimeoutMs: timeoutMs, // a quiet test suite is not stuck: only the wall timeout applies
    });
    this.running.add(proc);
    const onAbort = (): void => void proc.stop();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const redact = this.redactor.lines();
      for await (const line of proc.lines()) {
        const clean = redact(line);
        bounded.append(`${clean}\n`);
        await out.write(`${clean}\n`);
      }
      const end = await proc.ended;
      const note = describeEnd(end, this.settings.timeout_seconds);
      if (note) {
        bounded.append(`${note}\n`);
        await out.write(`${note}\n`);
      }
      const exitCode = end.kind === 'exited' ? end.exitCode : null;
      const result: TestRunResult = {
        passed: end.kind === 'exited' && end.exitCode === 0,
        exitCode,
        timedOut: end.kind === 'timeout' || end.kind === 'idle',
        durationMs: Date.now() - started,
        output: bounded.toString(),
      };
      this.debug(
        SOURCE,
        `\`${command}\` ended: ${end.kind}${exitCode === null ? '' : ` ${exitCode}`} after ${result.durationMs} ms`,
      );
      return result;
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
      this.running.delete(proc);
      await out.close();
    }
  }

  /** Stops every test command still running (the whole process group); resolves when they are gone. */
  async stop(): Promise<void> {
    await Promise.all([...this.running].map((p) => p.stop()));
  }
}
