// The engine: feeds events one at a time, in order, through the pure `transition`, and performs what it asks.
// The order per event is the crash-safety contract (docs/architecture.md, "Crash safety"): the transition, its file
// effects, state.json saved, the outputs to subscribers, then the background effects (agent rounds, tests, commits),
// whose outcomes come back as events. Each background effect runs under an AbortController of its own; stop,
// cancel and close abort them all, and an aborted effect dispatches nothing more.
import type { Effect, EngineEvent, EngineOutput } from '../core/events.js';
import type { CommandCheck, CommandVerdict } from '../core/ports.js';
import { effectFor } from '../core/approval.js';
import { InvalidEventError, isTerminal, transition } from '../core/transition.js';
import type { WorkflowState } from '../core/types.js';
import { UserError } from '../core/errors.js';
import { renderLedger } from '../core/ledger-text.js';
import { AgentRounds } from './agent-round.js';
import { EngineCommandGate } from './command-gate.js';
import { errorMessage, type EngineContext, type EngineDeps } from './context.js';
import { ResetTimer } from './reset-timer.js';
import { WorkClock } from './work-clock.js';
import { RunRecords } from './run-records.js';
import type { RunEnd } from './run-report.js';
import type { RunReportWritten } from '../core/run-report.js';
import { StepExecutor } from './step-executor.js';

export type { EngineDeps } from './context.js';

type Listener = (out: EngineOutput) => void;

/** Effects that change files are done before the state is saved, so a crash replays them rather than losing them. */
const BEFORE_SAVE: ReadonlySet<Effect['type']> = new Set([
  'stop_agents',
  'write_plan',
  'write_comments',
  'set_plan_status',
  'mark_step_done',
  'mark_step_skipped',
  'append_steps',
  'accept_edit',
  'log',
  'notify',
]);

export class Engine {
  private current: WorkflowState;
  private readonly listeners = new Set<Listener>();
  private queue: Promise<void> = Promise.resolve();
  /** The background effects under way, each with the controller that stops it. */
  private readonly running = new Map<Promise<void>, AbortController>();
  /** The state in memory has changes not yet in state.json (usage counters). */
  private unsaved = false;
  private closing = false;
  private readonly gate: EngineCommandGate;
  private readonly steps: StepExecutor;
  private readonly rounds: AgentRounds;
  /** Wakes a run parked at a usage limit at its reset (core/usage-limit.ts). */
  private readonly resetTimer: ResetTimer;

  constructor(
    state: WorkflowState,
    private readonly deps: EngineDeps,
  ) {
    this.current = state;
    const ctx: EngineContext = {
      deps,
      state: () => this.current,
      dispatch: (event) => this.dispatch(event),
      emit: (out) => this.emit(out),
      nowIso: () => this.nowIso(),
      workClock: new WorkClock(),
    };
    const records = new RunRecords(deps);
    this.gate = new EngineCommandGate(ctx, records);
    this.steps = new StepExecutor(ctx, records, this.gate);
    this.rounds = new AgentRounds(ctx, records, this.steps);
    this.resetTimer = new ResetTimer(
      () => deps.now?.() ?? new Date(),
      (until) => void this.dispatch({ type: 'limit_reset', until }),
    );
  }

  get state(): WorkflowState {
    return this.current;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Queues an event. Resolves once it has been applied and its file effects are done.
   * Rejected events are reported to listeners (`rejected`) and resolve with false.
   */
  dispatch(event: EngineEvent): Promise<boolean> {
    const run = this.queue.then(() => this.apply(event));
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /**
   * Continues a loaded state after a restart: re-runs the round that was under way, re-announces what the person
   * is asked, or reloads the steps after an approval. A round already started by an event dispatched before (e.g.
   * `set_mode` auto at a waiting go) is not started a second time.
   */
  async resume(): Promise<void> {
    if (this.current.pendingCommand) {
      // The agent that asked is gone with the old process; its round is run again.
      this.current = { ...this.current, pendingCommand: null };
      this.unsaved = true;
    }
    this.emit({ type: 'state', state: this.current });
    if (isTerminal(this.current.phase)) return;
    // A cap raised in the config lets a run stopped at it go on; a round under way waits when a cap is reached.
    if (this.current.awaiting?.kind === 'budget' || this.current.inflight) {
      const before = this.current;
      await this.dispatch({ type: 'budget_check' });
      if (this.current !== before) return void (await this.queue);
    }
    const s = this.current;
    if (s.inflight) {
      if (this.running.size === 0) this.launch(effectFor(s.inflight));
    } else if (s.awaiting) {
      this.emit({ type: 'awaiting', awaiting: s.awaiting, phase: s.phase });
      // A run parked at a usage limit waits the rest of the time (or goes on at once when it has passed).
      this.resetTimer.sync(this.current);
    } else if (s.phase === 'APPROVED' || s.phase === 'EXECUTE') {
      this.launch({ type: 'load_steps' });
    }
    await this.queue;
  }

  /** Stops everything under way and waits until it has settled; the saved state can be resumed later. */
  async close(): Promise<void> {
    this.closing = true;
    this.resetTimer.clear();
    await this.stopAll('agent-collab is shutting down');
    await Promise.allSettled(this.running.keys());
    await this.queue;
    await this.deps.artifacts?.flush().catch(() => undefined);
    if (this.unsaved)
      await this.save(this.current).catch((err: unknown) => this.emit({ type: 'error', message: errorMessage(err) }));
  }

  /** The gate for every command, the agents' (through their hook) and agent-collab's own. Never throws. */
  checkCommand(check: CommandCheck): Promise<CommandVerdict> {
    return this.gate.check(check);
  }

  private async apply(event: EngineEvent): Promise<boolean> {
    const before = this.current;
    let result;
    try {
      result = transition(before, event, this.deps.options);
    } catch (err) {
      if (err instanceof InvalidEventError) {
        this.deps.files.debug('engine', `rejected ${event.type}: ${err.message}`);
        this.emit({ type: 'rejected', event: event.type, message: err.message });
        return false;
      }
      throw err;
    }
    if (result.state === before) return true; // nothing changed (e.g. a session id it already had)
    const state = { ...result.state, updatedAt: this.nowIso() };
    try {
      for (const effect of result.effects) if (BEFORE_SAVE.has(effect.type)) await this.performNow(effect);
      // ledger.md is a rendering of the state's ledger: written with the state that changed it, before its save.
      if (state.ledger && state.ledger !== before.ledger)
        await this.deps.files.writeLedger?.(renderLedger(state.ledger));
      this.current = state;
      // Usage counters and agent time ride along with the next save: losing the last one in a crash costs nothing.
      // One that stops the run at a budget cap (or gives a notice) is saved like any other change.
      if ((event.type === 'usage' || event.type === 'worked') && result.effects.length === 0) this.unsaved = true;
      else await this.save(state);
    } catch (err) {
      // A UserError says which exit code it is (e.g. agent-collab's files changed under the run: 3).
      this.emit({
        type: 'error',
        message: errorMessage(err),
        ...(err instanceof UserError && { exitCode: err.exitCode }),
      });
      this.current = state;
      return true;
    }
    if (!this.closing) this.resetTimer.sync(state);
    if (before.phase !== state.phase)
      this.emit({ type: 'phase', from: before.phase, to: state.phase, iteration: state.iteration });
    this.emit({ type: 'state', state });
    if (state.awaiting && state.awaiting !== before.awaiting)
      this.emit({ type: 'awaiting', awaiting: state.awaiting, phase: state.phase });
    const report: { written: RunReportWritten | null } = { written: null };
    for (const effect of result.effects) {
      if (BEFORE_SAVE.has(effect.type)) continue;
      // A stop resets the iteration for the next goal: the report tells the rounds the run had.
      if (effect.type === 'report')
        report.written = await this.writeReport(
          { ...state, iteration: Math.max(state.iteration, before.iteration) },
          effect,
        );
      else if (effect.type === 'archive') {
        const where = await this.archive(state);
        // The report went to history/ with the rest of the run: say where it is now.
        if (report.written && where && this.deps.reports)
          report.written = { ...report.written, path: this.deps.reports.archivedPath(state, where) };
      }
      // The waiting hook gets its answer once the state that records it (e.g. an "allow always") is saved.
      else if (effect.type === 'answer_command')
        this.gate.answer(effect.id, effect.allow ? { allow: true } : { allow: false, reason: effect.reason });
      else this.launch(effect);
    }
    if (report.written) this.emit({ type: 'report', ...report.written });
    if (isTerminal(state.phase) && !isTerminal(before.phase))
      this.emit({ type: 'finished', phase: state.phase as 'DONE' | 'CANCELLED' });
    return true;
  }

  /**
   * agent-collab is closing on a run under way (Ctrl+C, SIGINT/SIGTERM: saved, to be resumed): its report as it
   * stands. Nothing is written before a plan was worked on, nor for a run that ended (its report is written).
   */
  async reportInterrupted(ending: 'interrupted' | 'failed' = 'interrupted'): Promise<RunReportWritten | null> {
    const s = this.current;
    if (s.phase === 'INIT' || s.phase === 'REFINE_GOAL' || isTerminal(s.phase)) return null;
    const reason =
      ending === 'failed'
        ? `agent-collab ended on a failure in ${s.phase}${s.awaiting?.kind === 'failure' ? `: ${s.awaiting.message.split('\n')[0] ?? ''}` : ''}`
        : `agent-collab was closed in ${s.phase}`;
    const report = await this.writeReport(s, { ending, reason, step: s.currentStep });
    if (report) this.emit({ type: 'report', ...report });
    return report;
  }

  /**
   * The run's report. One that cannot be written is a notice, not an `error` output: that would end a headless run
   * with an agent failure's exit code although the run itself ended well.
   */
  private async writeReport(state: WorkflowState, end: RunEnd): Promise<RunReportWritten | null> {
    if (!this.deps.reports) return null;
    try {
      return await this.deps.reports.write(state, end, this.nowIso());
    } catch (err) {
      const message = `could not write the run report: ${errorMessage(err)}`;
      this.deps.files.debug('engine', message);
      this.emit({ type: 'notice', notice: { kind: 'info', message } });
      return null;
    }
  }

  /** The effects done inside the queue, before the state that follows from them is saved. */
  private async performNow(effect: Effect): Promise<void> {
    const f = this.deps.files;
    switch (effect.type) {
      case 'stop_agents':
        return this.stopAll('the step was stopped');
      case 'write_plan':
        return f.writePlan(effect.text, effect.iteration);
      case 'write_comments':
        return f.writeComments(effect.text, effect.verdict, effect.iteration);
      case 'set_plan_status':
        return f.setPlanStatus(effect.status);
      case 'mark_step_done':
        return f.markStepDone(effect.step, effect.commit);
      case 'mark_step_skipped':
        return f.markStepSkipped(effect.step);
      case 'append_steps':
        return f.appendSteps(effect.titles);
      case 'accept_edit':
        return f.acceptEdit(effect.file);
      case 'log':
        return f.appendLog(effect.title, effect.lines ?? []);
      case 'notify':
        this.emit({ type: 'notice', notice: effect.notice });
        return;
      default:
        throw new Error(`${effect.type} is not done before the save`);
    }
  }

  /** Starts a background effect without blocking the queue; its outcome comes back as an event. */
  private launch(effect: Effect): void {
    if (this.closing) return;
    const controller = new AbortController();
    const { signal } = controller;
    const p: Promise<void> = this.performInBackground(effect, signal)
      .catch(async (err: unknown) => {
        if (signal.aborted) return;
        const action = effect.type === 'run_agent' ? effect.action : this.current.inflight;
        await this.dispatch({ type: 'engine_failed', action, message: errorMessage(err) });
      })
      .finally(() => this.running.delete(p));
    this.running.set(p, controller);
  }

  private async performInBackground(effect: Effect, signal: AbortSignal): Promise<void> {
    switch (effect.type) {
      case 'run_agent':
        return this.rounds.run(effect.role, effect.action, signal);
      case 'merge_external':
        return this.rounds.mergeExternal(effect, signal);
      case 'resolve_conflicts':
        return this.rounds.resolveConflicts(effect, signal);
      case 'run_tests':
        return this.steps.runTests(effect.step, effect.attempt, signal);
      case 'commit_step':
        return this.steps.commit(effect.step, effect.summary, effect.allowSecrets, signal);
      case 'rollback_step':
        return this.steps.rollback(effect.step, signal);
      case 'load_steps': {
        const steps = await this.deps.files.readSteps();
        if (!signal.aborted) await this.dispatch({ type: 'steps_loaded', steps });
        return;
      }
      default:
        throw new Error(`${effect.type} is not a background effect`);
    }
  }

  /** Aborts every background effect, denies the held commands, and waits until the agents and tests have stopped. */
  private async stopAll(reason: string): Promise<void> {
    for (const controller of this.running.values()) controller.abort();
    this.gate.denyAll(reason);
    await this.deps.tests?.stop().catch(() => undefined);
    await Promise.allSettled(Object.values(this.deps.agents).map((a) => a.stop()));
  }

  private async archive(state: WorkflowState): Promise<string | null> {
    try {
      const where = await this.deps.files.archive(state);
      this.emit({ type: 'notice', notice: { kind: 'info', message: `Run archived to ${where}` } });
      return where;
    } catch (err) {
      this.emit({ type: 'error', message: `could not archive the run: ${errorMessage(err)}` });
      return null;
    }
  }

  private async save(state: WorkflowState): Promise<void> {
    this.unsaved = false;
    await this.deps.files.saveState(state);
  }

  private emit(out: EngineOutput): void {
    for (const l of this.listeners) {
      try {
        l(out);
      } catch (err) {
        this.deps.files.debug('engine', `listener failed: ${String(err)}`);
      }
    }
  }

  private nowIso(): string {
    return (this.deps.now?.() ?? new Date()).toISOString();
  }
}
