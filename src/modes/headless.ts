// Headless mode: drives the engine with no TTY. Without --auto each invocation lets one agent round through;
// anything else that needs a person ends the process with exit code 3 and says how to continue.
import { BUDGET_KEYS, describeBudget } from '../core/budget.js';
import type { Writable } from 'node:stream';
import type { EngineEvent } from '../core/events.js';
import type { Config } from '../persistence/config-schema.js';
import { deepMerge, type DeepPartial } from '../persistence/deep-merge.js';
import type { RunEvent } from './run-events.js';
import type { Agent, Awaiting, Role, WorkflowState } from '../core/types.js';
import { EXIT, UserError } from '../core/errors.js';
import { flagsFor } from '../core/decisions.js';
import { describeLarge } from '../core/commit-holds.js';
import { refuseUnsafeRepo } from '../adapters/git/repo-safety.js';
import { describeFsError } from '../persistence/fs-errors.js';
import { askYesNo } from './ask.js';
import { decisionEvent, type Decision } from './decisions.js';
import { createPrinter } from './printer.js';
import { confinementAtStart, openSession, roleSetups, type Session } from './session.js';
import type { RoleSetup } from '../core/run-report.js';

export interface HeadlessOptions {
  cwd: string;
  goal?: string;
  auto: boolean;
  autoApprove?: boolean;
  json: boolean;
  maxIterations?: number;
  resume: 'resume' | 'fresh' | 'ask';
  agents?: Partial<Record<Role, Agent>>;
  homeDir?: string;
  stdout?: Writable;
  stderr?: Writable;
  /** Handle SIGINT/SIGTERM (the CLI does; tests driving it in-process don't). */
  handleSignals?: boolean;
  /** `--decide`: the person's choice at the question the run waits at (see core/decisions.ts). */
  decision?: Decision;
  /** `--answer`: the answer to an agent's question. */
  answer?: string;
  /** `--allow-cmd <prefix>`: commands needing confirmation that start with one of these are allowed. */
  allowCmd?: readonly string[];
  /** `--allow-detached`: steps may be committed onto a detached HEAD. */
  allowDetached?: boolean;
  /** Answer to the "Resume? [Y/n]" question when stdin is a terminal; tests inject it; null: nobody to ask. */
  ask?: ((question: string) => Promise<boolean>) | null;
  /** Config overrides below the flags' (the library API's `config`, validated by the caller). */
  config?: DeepPartial<Config>;
  /** JSON mode: each event goes to this function instead of a line on stdout (the library API). */
  onEvent?: (event: RunEvent) => void;
  /**
   * Asked where the run would wait for a person (after the `needs_human` event): the event that carries out the
   * person's choice, or null to end the run there as without it. A rejection ends the run with that error.
   */
  decide?: (w: Awaiting) => Promise<EngineEvent | null>;
  /** Aborting it stops the run and saves it as SIGINT does (exit 130). */
  signal?: AbortSignal;
  /** Layered context given to the agents after each prompt (the queue's); default: the project's context.md. */
  context?: string;
  /** Told where the run stopped, before the `done` event: the final state and who played each role. */
  onEnd?: (end: { state: WorkflowState; roles: Record<Role, RoleSetup> }) => void;
}

export async function runHeadless(opts: HeadlessOptions): Promise<number> {
  const stdout = opts.stdout ?? process.stdout;
  const stderr = opts.stderr ?? process.stderr;
  // Bound to the printer once it exists (it needs the session's redactor): a lost lock is one more notice.
  let lockLost = (_message: string): void => undefined;
  const session = await openSession({
    cwd: opts.cwd,
    homeDir: opts.homeDir,
    agents: opts.agents,
    context: opts.context,
    overrides: deepMerge(opts.config ?? {}, {
      workflow: { max_iterations: opts.maxIterations, auto_approve: opts.autoApprove },
    }) as DeepPartial<Config>,
    allowDetached: opts.allowDetached,
    onLockLost: (message) => lockLost(message),
  });
  const print = createPrinter({
    json: opts.json,
    out: stdout,
    err: stderr,
    redactor: session.redactor,
    onEvent: opts.onEvent,
  });
  lockLost = (message) => print.notice(`warning: ${message}`);
  let code: number;
  try {
    if (session.corrupt) {
      // --resume asked for the saved run, and there is none to resume: say so once, the file kept aside.
      if (opts.resume === 'resume')
        throw new UserError(
          `state.json is unreadable (${session.corrupt.reason}); it was moved to ${session.corrupt.movedTo}: run without --resume to start a new run`,
        );
      print.notice(
        `state.json could not be read (${session.corrupt.reason}); it was moved to ${session.corrupt.movedTo} and a new run starts`,
      );
    }
    // Before any agent runs: never into a rebase, a merge, … nor onto a detached HEAD unless allowed.
    await refuseUnsafeRepo(session.repoRoot, opts.allowDetached === true);
    const confinement = await confinementAtStart(session.config);
    if (confinement && 'error' in confinement) throw new UserError(confinement.error);
    if (confinement) print.notice(`warning: ${confinement.warning}`);
    const state = await chooseState(session, opts, print.notice);
    if (typeof state === 'number') code = state;
    else {
      // plan.md and comments.md are read before anything runs: invalid frontmatter is bad input (exit 2), not a
      // failure of the run that the engine would park it at.
      await session.files.readPlan();
      await session.files.readComments();
      code = await drive(session, state, opts, print);
    }
  } catch (err) {
    await closeAfter(session, null);
    throw err;
  }
  return closeAfter(session, code, print);
}

/**
 * Closes the session; the run's outcome stands (its summary already names the exit code). A close that fails, e.g.
 * on a `.agent-collab/` made read-only during the run, is one more line, never a different exit code.
 */
async function closeAfter(
  session: Session,
  code: number | null,
  print?: ReturnType<typeof createPrinter>,
): Promise<number> {
  try {
    await session.close();
  } catch (err) {
    if (code === null) return EXIT.badInput; // the error that ended the run is the one reported
    print?.notice(`could not close the session cleanly: ${describeFsError(err) ?? String(err).split('\n')[0]}`);
  }
  return code ?? EXIT.badInput;
}

/** `--resume` where no run is unfinished (the library API says it in its own words). */
export class NoRunToResume extends UserError {
  constructor() {
    super('there is no unfinished run to resume here; start one with --goal "…"');
  }
}

async function chooseState(
  session: Session,
  opts: HeadlessOptions,
  notice: (m: string) => void,
): Promise<WorkflowState | number> {
  const saved = session.saved;
  if (saved.kind === 'unfinished') {
    const s = saved.state;
    let resume = opts.resume === 'resume';
    if (opts.resume === 'ask') {
      const question = `Unfinished session found (phase ${s.phase}, iteration ${s.iteration}). Resume? [Y/n]`;
      const ask = opts.ask === undefined ? (process.stdin.isTTY ? askYesNo : null) : opts.ask;
      if (!ask) {
        notice(
          `${question.replace(' Resume? [Y/n]', '')}: rerun with --resume to continue it, or --fresh to archive it and start over`,
        );
        return EXIT.needsHuman;
      }
      resume = await ask(question);
    }
    if (resume) return s;
    notice(`Archived the unfinished run to ${await session.archiveSaved(s)}`);
  } else if (saved.kind === 'finished') {
    notice(
      `Archived the previous ${saved.state.phase === 'DONE' ? 'finished' : 'cancelled'} run to ${await session.archiveSaved(saved.state)}`,
    );
  }
  if (opts.resume === 'resume' && saved.kind !== 'unfinished' && !opts.goal) throw new NoRunToResume();
  if (!opts.goal?.trim())
    throw new UserError('--goal is required to start a run, e.g. agent-collab run --goal "add a --verbose flag"');
  return session.newRun(opts.goal, opts.auto ? 'auto' : 'manual');
}

/** One side of a dispute in a one-line hint. */
function clip(text: string, max = 80): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length <= max ? one : `${one.slice(0, max - 1)}…`;
}

function exitCodeFor(w: Awaiting): number {
  return w.kind === 'failure' && w.role !== null ? EXIT.agentFailure : EXIT.needsHuman;
}

/** What happened and how to go on; the choices are the decisions table's flags, never TUI keys. */
export function hintFor(w: Awaiting): string {
  const rerun = `rerun with --resume ${flagsFor(w)}`;
  switch (w.kind) {
    case 'go':
      return w.action.kind === 'execute_step'
        ? 'the plan is approved; rerun with --resume to run the next step, --resume --auto to run them all, or add --auto-approve'
        : 'waiting for your go; rerun with --resume for the next round, or --resume --auto to run until approval';
    case 'goal':
      return 'the run is at goal refinement; rerun with --resume --goal "…" to write a plan for that goal';
    case 'arbitration':
      return `the iteration cap was reached (${w.iteration}); ${rerun}`;
    case 'question':
      return `the ${w.role} asks: ${w.text.split('\n')[0]} — ${rerun}`;
    case 'interrupted':
      return `the ${w.role}'s round was interrupted by the person; ${rerun}`;
    case 'unclear_verdict':
      return `the reviewer twice gave no readable verdict (see comments in debug.log); ${rerun}`;
    case 'manual_edit':
      return `edit .agent-collab/plan.md, then ${rerun}`;
    case 'code_review_cap':
      if (w.noFixSteps !== undefined)
        return `the planner listed no fix steps for the code review's comments (its answer is in log.md): ${w.noFixSteps.trim().split('\n')[0] ?? ''} — ${rerun}`;
      return `the code review of ${w.step === null ? "the run's changes" : `step ${w.step}`} still asks for changes after ${w.round} round(s) (see log.md); ${rerun}`;
    case 'code_edit':
      return `edit the code, then ${rerun}`;
    case 'disagreement': {
      const sides = w.disputes.map(
        (d) =>
          `${d.id} reviewer: "${clip(d.reviewer)}" / planner: "${d.planner === null ? '(no answer)' : clip(d.planner)}"`,
      );
      return `the reviewer and the planner are stuck (${w.reason}): ${sides.join('; ') || 'no live entry'} (both sides in full in .agent-collab/ledger.md) — ${rerun}`;
    }
    case 'failure':
      return `${w.message}; rerun with --resume to retry (the same as ${flagsFor(w)})`;
    case 'step_failed':
      return `step ${w.step} ${w.rolledBack ? 'was rolled back' : `still fails after ${w.attempt} attempt(s) (${w.category})`}: ${w.message.split('\n')[0]} — ${rerun}`;
    case 'forbidden_change':
      return `step ${w.step} was not committed: the agent changed what it must not (${w.changes.join('; ')}); agent-collab undid it (${w.undone.join('; ') || 'nothing to undo'}) — ${rerun}`;
    case 'secret_found':
      return `the changes of step ${w.step} look like they contain a secret (${w.findings.map((f) => `${f.file}:${f.line} ${f.kind}`).join(', ')}); remove it and ${rerun}`;
    case 'commit_failed':
      return `${w.message}; ${rerun}`;
    case 'hunks_overlap':
      return `step ${w.step} was not committed: the agent changed lines you had changed too in ${w.files.join(', ')}; ${rerun}`;
    case 'large_change':
      return `step ${w.step} was not committed: it is over the [safety] limits (${describeLarge(w.large).join('; ')}); ${rerun}`;
    case 'external_change':
      return `${w.file === 'plan' ? 'plan.md' : 'comments.md'} was changed outside agent-collab while the ${w.role} wrote a new version; ${rerun}`;
    case 'budget':
      return `${BUDGET_KEYS[w.budget]} is reached (${describeBudget(w)}); the ${w.action.kind} round waits: raise the cap in the config and rerun with --resume, or ${rerun}`;
    case 'usage_limit':
      return `the ${w.role} hit a usage limit (${w.message.split('\n')[0]}); the run waits until ${w.until}, then runs the ${w.action.kind} round again; ${rerun}`;
    case 'merge_conflicts':
      return `${w.file === 'plan' ? 'plan.md' : 'comments.md'} has ${w.conflicts} conflict(s) between your edit and the ${w.role}'s version, marked <<<<<<< / >>>>>>> in the file: resolve them there, or take one side; ${rerun}`;
  }
}

async function drive(
  session: Session,
  state: WorkflowState,
  opts: HeadlessOptions,
  print: ReturnType<typeof createPrinter>,
): Promise<number> {
  const engine = session.engineFor(state, {
    interactive: false,
    allowCmd: opts.allowCmd ?? [],
    outputDrained: print.drained,
  });
  // Manual mode: this invocation is one go — unless it already finishes a round that was under way.
  let goes = opts.auto || state.inflight ? 0 : 1;
  // Rerunning with --resume after a failure is the retry.
  let retries = state.awaiting?.kind === 'failure' && opts.resume === 'resume' ? 1 : 0;
  let decided = false;
  let goalGiven = false;
  let resolveOutcome!: (code: number) => void;
  const outcome = new Promise<number>((resolve) => (resolveOutcome = resolve));
  let settled = false;
  const settle = (code: number): void => {
    settled = true;
    resolveOutcome(code);
  };
  // A failure of the `decide` hook: the run stops there (saved) and runHeadless rejects with it.
  let hookFailure: unknown = null;

  const onAwaiting = (w: Awaiting): void => {
    if (w.kind === 'go' && goes > 0) {
      goes--;
      void engine.dispatch({ type: 'go' });
      return;
    }
    if (w.kind === 'failure' && retries > 0) {
      retries--;
      void engine.dispatch({ type: 'go' });
      return;
    }
    const decision = decided ? null : decisionEvent(w, opts.decision, opts.answer);
    if (decision) {
      decided = true;
      void engine.dispatch(decision);
      return;
    }
    if (w.kind === 'usage_limit') {
      // Parked until the reset: the engine's timer runs the round again then; nobody needs to be asked.
      print.waiting(w);
      return;
    }
    if (w.kind === 'goal' && opts.goal && !goalGiven) {
      goalGiven = true;
      void engine.dispatch({ type: 'goal_ready', goal: opts.goal });
      return;
    }
    print.needsHuman(w, engine.state.phase, hintFor(w));
    if (!opts.decide) return settle(exitCodeFor(w));
    opts.decide(w).then(
      (event) => {
        if (settled) return;
        if (!event) return settle(exitCodeFor(w));
        // An answer the engine refuses there (a `rejected` event) would leave the run waiting on nothing: it ends.
        void engine.dispatch(event).then((applied) => {
          if (applied || settled) return;
          hookFailure ??= new UserError(`the answer to ${w.kind} was refused where the run waits; the run is saved`);
          settle(exitCodeFor(w));
        });
      },
      (err: unknown) => {
        hookFailure ??= err;
        settle(exitCodeFor(w));
      },
    );
  };

  engine.subscribe((out) => {
    print.output(out);
    if (out.type === 'awaiting') onAwaiting(out.awaiting);
    else if (out.type === 'finished') settle(EXIT.done);
    else if (out.type === 'error') settle(out.exitCode ?? EXIT.agentFailure);
  });

  const stopSignals = opts.handleSignals ? onSignals(() => settle(EXIT.interrupted)) : () => undefined;
  const stopAbort = onAbort(opts.signal, () => settle(EXIT.interrupted));
  // If nothing is left to run but no outcome was reached, the engine has stalled: say so instead of exiting 0.
  const onStall = (): void => {
    print.notice('internal error: the run stopped making progress (state saved; rerun with --resume)');
    settle(EXIT.agentFailure);
  };
  const stopStall = whenStalled(onStall);
  try {
    if (state.phase === 'INIT') {
      // start → the engine asks for the goal → onAwaiting confirms it (headless does no refinement exchange).
      await engine.dispatch({ type: 'start', goal: state.goal || (opts.goal ?? '') });
    } else {
      // The flags of this invocation decide the mode, whatever the run was started with.
      const mode = opts.auto ? 'auto' : 'manual';
      // --auto at a waiting go is that go (the approved-plan gate of a run started with --auto included): switching
      // to auto starts the round, as the hints promise.
      const goWaits = opts.auto && !state.inflight && state.awaiting?.kind === 'go';
      if (state.mode !== mode || state.pauseRequested || goWaits) await engine.dispatch({ type: 'set_mode', mode });
      await engine.resume();
    }
    if (engine.state.phase === 'DONE' || engine.state.phase === 'CANCELLED') settle(EXIT.done);
    const code = await outcome;
    await engine.close();
    if (hookFailure !== null) throw hookFailure;
    // Interrupted (SIGINT/SIGTERM) or failed (exit 4): the run is saved to be resumed, and its report says where it
    // stands. A run that waits for a person's decision (exit 3) is not over: it goes on with --resume --decide.
    if (code === EXIT.interrupted) await engine.reportInterrupted();
    else if (code === EXIT.agentFailure) await engine.reportInterrupted('failed');
    opts.onEnd?.({ state: engine.state, roles: roleSetups(session.config) });
    print.done(engine.state, code);
    return code;
  } finally {
    stopSignals();
    stopAbort();
    stopStall();
  }
}

/**
 * The stall checks of the runs under way in this process, behind one `beforeExit` listener: a program running a
 * dozen runs at once (the library API) must not trip Node's MaxListeners warning. Each check fires once.
 */
const stallChecks = new Set<() => void>();
const checkStalls = (): void => {
  for (const check of [...stallChecks]) check();
};

function whenStalled(handler: () => void): () => void {
  const once = (): void => {
    stop();
    handler();
  };
  const stop = (): void => {
    stallChecks.delete(once);
    if (stallChecks.size === 0) process.off('beforeExit', checkStalls);
  };
  if (stallChecks.size === 0) process.on('beforeExit', checkStalls);
  stallChecks.add(once);
  return stop;
}

function onSignals(handler: () => void): () => void {
  const h = (): void => handler();
  process.once('SIGINT', h);
  process.once('SIGTERM', h);
  return () => {
    process.off('SIGINT', h);
    process.off('SIGTERM', h);
  };
}

function onAbort(signal: AbortSignal | undefined, handler: () => void): () => void {
  if (!signal) return () => undefined;
  if (signal.aborted) {
    handler();
    return () => undefined;
  }
  signal.addEventListener('abort', handler, { once: true });
  return () => signal.removeEventListener('abort', handler);
}
