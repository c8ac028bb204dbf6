// An Agent backed by a CLI process: runs it through the process runner, translates its JSON lines, and turns
// how the process ended (missing binary, timeouts, exit codes) into the engine's events.
import type { Agent, AgentEvent, AgentTurn } from '../core/types.js';
import type { HookEndpoint, HookLaunch } from './command-hook/endpoint.js';
import {
  outerBoxCommand,
  RefusalWatcher,
  type AgentConfinement,
  type ConfinedTurn,
  type OuterBox,
} from './confinement/index.js';
import { classifyFailure } from './failure-kind.js';
import { parseJsonLine, type Json } from './json-fields.js';
import { runProcess, type DebugSink, type ProcessEnd, type RunningProcess } from './process-runner.js';
import { SideEvents } from './side-events.js';
import { truncateMiddle } from './truncate.js';
import { errorEvent } from './agent-events.js';

/** Translates one CLI run's output; a fresh one per run. */
export interface LineTranslator {
  line(json: Json): AgentEvent[];
  /** Events owed once the output has ended. */
  finish(): AgentEvent[];
  /** Events for one stderr line, for a CLI that says something there the engine must hear (codex's retry waits). */
  stderr?(line: string): AgentEvent[];
}

/** What differs between CLIs. */
export interface CliFlavor {
  /** For messages: "codex", "claude". */
  cli: string;
  /** How to install it, shown when the binary is missing. */
  installHint: string;
  /**
   * The CLI's arguments; the prompt is not among them, it goes to the CLI's stdin (an argument is limited to 128 KB).
   * `hook`: the PreToolUse hook every shell command must pass (null: none). `confined`: the turn runs confined
   * (null: `[safety] sandbox = "off"`); a CLI with a sandbox of its own turns it on here.
   */
  args(
    turn: AgentTurn,
    sessionId: string | null,
    hook: HookLaunch | null,
    confined?: ConfinedTurn | null,
    model?: ModelChoice,
  ): string[];
  /**
   * When set, the CLI process itself runs inside agent-collab's bubblewrap box on every turn (write turns: only the
   * repo's working tree writable; read-only turns: the repo read-only too), with these dirs of its own writable
   * (created first when missing) and these dirs shown through a private file system (see PrivateDir).
   */
  outerBox?(turn: AgentTurn, env: NodeJS.ProcessEnv): OuterBox;
  /**
   * The longest prompt the CLI takes, in characters (codex 0.169 refuses more with a Rust backtrace): a longer one
   * fails the turn at once with one line saying what to shorten.
   */
  maxPromptChars?: number;
  /**
   * Sets up what the CLI reads for this turn (gemini: its settings file) before it starts; returns why it could not
   * (the turn then fails with that line), else null.
   */
  prepare?(turn: AgentTurn, hook: HookLaunch | null): string | null;
  /** Whether this turn's CLI gets the hook (default: every turn); a turn whose CLI cannot run commands need not. */
  needsHook?(turn: AgentTurn): boolean;
  translator(): LineTranslator;
  /**
   * Whether a resumed run that ended without a JSON answer failed because the session is gone (its stderr says
   * so): the engine then starts a new session with the recovery prompt.
   */
  sessionLost?(stderr: string): boolean;
  /**
   * The CLI's stdout goes to a temp file read at agent-collab's pace instead of a pipe: claude exits with what the
   * pipe has not taken still queued, and loses it (output-spool.ts).
   */
  stdoutToFile?: boolean;
  /** The child's environment (for this turn and hook); default: this process's. */
  env?(turn: AgentTurn, hook: HookLaunch | null): NodeJS.ProcessEnv;
  /**
   * The command (as the hook saw it) when `event` shows that a shell command ran, else null. With a hook, every
   * such command must have been approved by it; one that was not ends the run.
   */
  commandThatRan?(event: AgentEvent): string | null;
}

/** `[roles] <role>_model` / `<role>_effort`: passed with the CLI's own flags; "" = the CLI's default. */
export interface ModelChoice {
  model: string;
  effort: string;
}

export const NO_MODEL_CHOICE: ModelChoice = { model: '', effort: '' };

export interface CliAgentOptions {
  name: string;
  /** The role's model and effort (default: the CLI's own). */
  model?: ModelChoice;
  /** The executable; default: the CLI's name, looked up on PATH. */
  binary?: string;
  debug: DebugSink;
  /** Label of this agent's lines in debug.log, e.g. "planner/codex". */
  debugSource: string;
  wallTimeoutMs?: number;
  idleTimeoutMs?: number;
  /** How long a CLI may take to exit after its answer before it is stopped; default ANSWER_GRACE_MS. */
  answerGraceMs?: number;
  /** agent-collab's command hook; every turn passes it to the CLI. */
  hook?: HookEndpoint;
  /** `[safety] sandbox = "on"`: write turns (and boxed CLIs' every turn) run confined; absent: "off". */
  confinement?: AgentConfinement;
}

/** A CLI saves its session and exits right after its answer; one still running this much later is stopped. */
export const ANSWER_GRACE_MS = 10_000;

/** How much of stderr goes into an error message. */
const STDERR_IN_MESSAGE_BYTES = 2_000;

interface Run {
  stopped: boolean;
  proc: RunningProcess | null;
}

function duration(ms: number): string {
  if (ms >= 60_000) return `${Math.round(ms / 60_000)} min`;
  return ms >= 1_000 ? `${Math.round(ms / 1_000)} s` : `${ms} ms`;
}

export class CliAgent implements Agent {
  private readonly runs = new Set<Run>();

  constructor(
    private readonly flavor: CliFlavor,
    private readonly opts: CliAgentOptions,
  ) {}

  get name(): string {
    return this.opts.name;
  }

  start(turn: AgentTurn): AsyncIterable<AgentEvent> {
    return this.run(turn, null);
  }

  resume(sessionId: string, turn: AgentTurn): AsyncIterable<AgentEvent> {
    return this.run(turn, sessionId);
  }

  /** Stops running turns (their whole process groups). */
  async stop(): Promise<void> {
    const runs = [...this.runs];
    for (const r of runs) r.stopped = true;
    await Promise.all(runs.map((r) => r.proc?.stop()));
  }

  /** Registered at call time, so stop() also cancels a turn nobody has iterated yet. */
  private run(turn: AgentTurn, sessionId: string | null): AsyncIterable<AgentEvent> {
    const run: Run = { stopped: false, proc: null };
    this.runs.add(run);
    return this.events(run, turn, sessionId);
  }

  private async *events(run: Run, turn: AgentTurn, sessionId: string | null): AsyncGenerator<AgentEvent> {
    let answerTimer: NodeJS.Timeout | undefined;
    try {
      const binary = this.opts.binary ?? this.flavor.cli;
      const max = this.flavor.maxPromptChars;
      if (max !== undefined && turn.prompt.length > max) {
        yield {
          type: 'error',
          kind: 'agent_error',
          message: `the prompt for ${this.flavor.cli} is ${turn.prompt.length} characters, over the ${max} it accepts: shorten the goal or the plan (or let another CLI take this role)`,
        };
        return;
      }
      const hook = await this.launchHook(turn);
      if (typeof hook === 'string') {
        yield { type: 'error', kind: 'agent_error', message: hook };
        return;
      }
      const unprepared = this.flavor.prepare?.(turn, hook) ?? null;
      if (unprepared !== null) {
        yield { type: 'error', kind: 'agent_error', message: unprepared };
        return;
      }
      const confined = await this.confine(turn);
      if (typeof confined === 'string') {
        yield { type: 'error', kind: 'missing_binary', message: confined };
        return;
      }
      if (run.stopped) return;
      // The hook's variables (its token) ride in the CLI's environment, which both CLIs pass on to the hook.
      const own = this.flavor.env?.(turn, hook);
      const env = hook === null ? own : { ...(own ?? process.env), ...hook.env };
      const launch = this.launchCommand(
        turn,
        binary,
        this.flavor.args(turn, sessionId, hook, confined, this.opts.model),
        env,
        confined,
      );
      if (launch === null) {
        yield this.endFailure({ kind: 'missing_binary', command: binary }, binary);
        return;
      }
      const translator = this.flavor.translator();
      const fromStderr = new SideEvents<AgentEvent>();
      const proc = runProcess({
        ...(translator.stderr ? { onStderrLine: (l: string) => fromStderr.push(translator.stderr?.(l) ?? []) } : {}),
        command: launch.command,
        args: launch.args,
        cwd: turn.cwd,
        env,
        debug: this.opts.debug,
        source: this.opts.debugSource,
        input: turn.prompt,
        wallTimeoutMs: this.opts.wallTimeoutMs,
        idleTimeoutMs: this.opts.idleTimeoutMs,
        ...(this.flavor.stdoutToFile ? { stdoutToFile: true } : {}),
      });
      run.proc = proc;
      let done: AgentEvent | null = null;
      let failed = false;
      const audited = new Set<string>();
      const refusals = confined === null ? null : new RefusalWatcher(confined);
      for await (const item of fromStderr.merge(proc.lines())) {
        // Once the answer is whole, the rest of the output (if any) only goes to debug.log.
        if (done) continue;
        const json = 'line' in item ? parseJsonLine(item.line) : null;
        for (const ev of 'event' in item ? [item.event] : json ? translator.line(json) : []) {
          const unapproved = this.unapprovedCommand(ev, audited);
          if (unapproved !== null) {
            yield ev;
            await proc.stop();
            if (run.stopped) return;
            yield this.unapprovedFailure(unapproved);
            return;
          }
          // The answer is delivered once the CLI has exited: it saves its session on the way out, and the next
          // turn may resume that session.
          if (ev.type === 'done') {
            done = ev;
            // Without this a CLI hanging after its answer would be bounded only by the idle timeout.
            answerTimer = setTimeout(() => void proc.stop(), this.opts.answerGraceMs ?? ANSWER_GRACE_MS);
            break;
          }
          if (ev.type === 'error') failed = true;
          yield ev;
          const refused = refusals?.see(ev);
          if (refused) yield refused;
        }
      }
      const end = await proc.ended;
      if (run.stopped) return;
      // Refusals a CLI reports only on stderr (refusals.ts), before its answer or failure.
      if (refusals && 'stderr' in end) yield* refusals.seeStderr(end.stderr);
      if (done) {
        this.noteEndAfterAnswer(end);
        for (const ev of translator.finish()) yield ev;
        yield done;
        return;
      }
      if (end.kind === 'stopped') return;
      if (end.kind !== 'exited') {
        yield this.endFailure(end, binary);
        return;
      }
      for (const ev of translator.finish()) {
        if (ev.type === 'error') failed = true;
        // A CLI that prints no end line (opencode): its answer is whole once it has exited cleanly.
        if (ev.type === 'done') {
          if (end.exitCode !== 0 || end.signal !== null) continue;
          yield ev;
          return;
        }
        yield ev;
      }
      if (!failed) yield this.exitFailure(end, sessionId !== null);
    } finally {
      clearTimeout(answerTimer);
      this.runs.delete(run);
      await run.proc?.stop(); // the consumer may have stopped listening early; a no-op once ended
    }
  }

  /**
   * A CLI that answered but then failed to exit cleanly: its answer still counts (it is whole), and debug.log says
   * how it ended. One still running a short while after its answer was stopped.
   */
  private noteEndAfterAnswer(end: ProcessEnd): void {
    const cli = this.flavor.cli;
    const how =
      end.kind === 'exited'
        ? end.exitCode !== 0 || end.signal !== null
          ? `exited after its answer with ${end.signal ?? `code ${end.exitCode}`}`
          : null
        : end.kind === 'stopped'
          ? `was still running ${duration(this.opts.answerGraceMs ?? ANSWER_GRACE_MS)} after its answer and was stopped`
          : end.kind === 'timeout' || end.kind === 'idle'
            ? `was still running after its answer and was stopped (${end.kind === 'idle' ? 'no output' : 'turn time limit'}: ${duration(end.afterMs)})`
            : `ended after its answer: ${end.kind}`;
    if (how) this.opts.debug(this.opts.debugSource, `agent-collab: ${cli} ${how}`);
  }

  /**
   * The confined turn (null: not confined), or why it cannot run: with the sandbox on, a write turn (and every turn
   * of a CLI that runs boxed) starts only after confinement was found to work, checked right before it.
   */
  private async confine(turn: AgentTurn): Promise<ConfinedTurn | null | string> {
    const confinement = this.opts.confinement;
    if (!confinement || (turn.access !== 'workspace-write' && !this.flavor.outerBox)) return null;
    const problem = await confinement.check();
    return problem ?? { repo: turn.cwd, workdir: confinement.workdir };
  }

  /** The CLI's command line, wrapped in bwrap for a boxed CLI; null when the CLI is not installed. */
  private launchCommand(
    turn: AgentTurn,
    binary: string,
    args: string[],
    env: NodeJS.ProcessEnv | undefined,
    confined: ConfinedTurn | null,
  ): { command: string; args: string[] } | null {
    if (confined === null || !this.flavor.outerBox) return { command: binary, args };
    const childEnv = env ?? process.env;
    const box = this.flavor.outerBox(turn, childEnv);
    return outerBoxCommand(box, confined, turn.access !== 'workspace-write', binary, args, childEnv);
  }

  /** The turn's hook (null: no hook for this turn), or why it cannot be had. */
  private async launchHook(turn: AgentTurn): Promise<HookLaunch | null | string> {
    const hook = this.opts.hook;
    if (!hook || this.flavor.needsHook?.(turn) === false) return null;
    try {
      return await hook.launch();
    } catch (err) {
      return (err as Error).message;
    }
  }

  /** A shell command that ran although the hook had not approved it (each command id is looked at once). */
  private unapprovedCommand(ev: AgentEvent, audited: Set<string>): string | null {
    const hook = this.opts.hook;
    if (!hook || ev.type !== 'command' || !this.flavor.commandThatRan) return null;
    const command = this.flavor.commandThatRan(ev);
    if (command === null) return null;
    if (ev.id !== undefined) {
      if (audited.has(ev.id)) return null;
      audited.add(ev.id);
    }
    return hook.approvals.take(command) ? null : command;
  }

  private unapprovedFailure(command: string): AgentEvent {
    const cli = this.flavor.cli;
    return {
      type: 'error',
      kind: 'agent_error',
      message:
        `${cli} ran a shell command that agent-collab's command hook had not approved, so agent-collab stopped it: ${truncateMiddle(command, 300)}. ` +
        `The hook did not run or did not reach agent-collab; check that ${cli}'s settings do not disable hooks.`,
    };
  }

  private endFailure(end: Exclude<ProcessEnd, { kind: 'exited' | 'stopped' }>, binary: string): AgentEvent {
    const cli = this.flavor.cli;
    switch (end.kind) {
      case 'missing_binary':
        return {
          type: 'error',
          kind: 'missing_binary',
          message: `${cli} is not installed or not on PATH (looked for "${binary}"); install it with: ${this.flavor.installHint}`,
        };
      case 'spawn_failed':
        return { type: 'error', kind: 'agent_error', message: `could not start ${cli}: ${end.message}` };
      case 'timeout':
        return {
          type: 'error',
          kind: 'timeout',
          message: `${cli} did not finish its turn within ${duration(end.afterMs)}; stopped it`,
        };
      case 'idle':
        return {
          type: 'error',
          kind: 'idle',
          message: `${cli} produced no output for ${duration(end.afterMs)}; stopped it`,
        };
    }
  }

  /** The CLI ended without an answer and without reporting an error: say how it exited, with its stderr. */
  private exitFailure(end: Extract<ProcessEnd, { kind: 'exited' }>, resumed: boolean): AgentEvent {
    const how = end.signal
      ? `was killed by ${end.signal}`
      : end.exitCode === 0
        ? 'ended without an answer'
        : `exited with code ${end.exitCode}`;
    const stderr = truncateMiddle(end.stderr.trim(), STDERR_IN_MESSAGE_BYTES);
    const message = `${this.flavor.cli} ${how}${stderr ? `: ${stderr}` : ''}`;
    if (resumed && end.exitCode !== 0 && this.flavor.sessionLost?.(end.stderr))
      return { type: 'error', kind: 'session_lost', message };
    return errorEvent(stderr ? classifyFailure({ message: stderr }) : { kind: 'agent_error' }, message);
  }
}
