// The effect runner: feeds events through `transition`, persists the state, performs the effects
// and turns their outcomes back into events. One event at a time, in order.
import type { Effect, EngineEvent, EngineOutput, RoundUsage } from './events.js';
import type { GitOps, Prompts, WorkflowFiles } from './ports.js';
import { buildTurnPrompt, recoveryPrompt } from './turn-prompts.js';
import { effectFor } from './approval.js';
import { InvalidEventError, isTerminal, transition, type TransitionOptions } from './transition.js';
import { detectQuestion } from './question-detect.js';
import type { Action, Agent, AgentEvent, AgentTurn, FailureKind, Role, TurnKind, WorkflowState } from './types.js';

export interface EngineDeps {
  repoRoot: string;
  files: WorkflowFiles;
  git: GitOps;
  prompts: Prompts;
  agents: Record<Role, Agent>;
  options: TransitionOptions;
  /** Service errors (failure kind `infra`) are retried this many times, waiting backoffMs, 2×, 4×, … */
  retry?: { infraRetries: number; backoffMs: number };
  now?: () => Date;
}

type Listener = (out: EngineOutput) => void;

/** Effects that change files are done before the state is saved, so a crash replays them rather than losing them. */
const BEFORE_SAVE: ReadonlySet<Effect['type']> = new Set(['stop_agents', 'write_plan', 'write_comments', 'set_plan_status', 'mark_step_done', 'log', 'notify']);

type RoundOutcome =
  | { kind: 'done'; text: string }
  | { kind: 'question'; text: string }
  | { kind: 'failed'; failure: FailureKind; message: string }
  | { kind: 'stopped' };

export class Engine {
  private current: WorkflowState;
  private readonly listeners = new Set<Listener>();
  private queue: Promise<void> = Promise.resolve();
  /** Bumped whenever agents are stopped: results of older rounds are dropped. */
  private generation = 0;
  private readonly background = new Set<Promise<void>>();
  private closing = false;
  /** What the agent round under way has used so far (one round runs at a time). */
  private roundUsage: RoundUsage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0, durationMs: 0, calls: 0 };
  /** The state in memory has changes not yet in state.json. */
  private unsaved = false;

  constructor(
    state: WorkflowState,
    private readonly deps: EngineDeps,
  ) {
    this.current = state;
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
    const s = this.current;
    this.emit({ type: 'state', state: s });
    if (isTerminal(s.phase)) return;
    if (s.inflight) {
      if (this.background.size === 0) this.launch(effectFor(s.inflight));
    } else if (s.awaiting) {
      this.emit({ type: 'awaiting', awaiting: s.awaiting, phase: s.phase });
    } else if (s.phase === 'APPROVED' || s.phase === 'EXECUTE') {
      this.launch({ type: 'load_steps' });
    }
    await this.queue;
  }

  /** Stops the agents and waits until everything in flight has settled; the saved state can be resumed later. */
  async close(): Promise<void> {
    this.closing = true;
    this.generation++;
    await Promise.allSettled(Object.values(this.deps.agents).map((a) => a.stop()));
    await Promise.allSettled([...this.background]);
    await this.queue;
    if (this.unsaved) await this.save(this.current).catch((err: unknown) => this.emit({ type: 'error', message: errorMessage(err) }));
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
    const state = { ...result.state, updatedAt: (this.deps.now?.() ?? new Date()).toISOString() };
    try {
      for (const effect of result.effects) if (BEFORE_SAVE.has(effect.type)) await this.perform(effect, state);
      this.current = state;
      // Usage counters ride along with the next save: losing the last one in a crash costs nothing.
      if (event.type === 'usage') this.unsaved = true;
      else await this.save(state);
    } catch (err) {
      this.emit({ type: 'error', message: errorMessage(err) });
      this.current = state;
      return true;
    }
    if (before.phase !== state.phase) this.emit({ type: 'phase', from: before.phase, to: state.phase, iteration: state.iteration });
    this.emit({ type: 'state', state });
    if (state.awaiting && state.awaiting !== before.awaiting) this.emit({ type: 'awaiting', awaiting: state.awaiting, phase: state.phase });
    for (const effect of result.effects) {
      if (BEFORE_SAVE.has(effect.type)) continue;
      if (effect.type === 'archive') await this.perform(effect, state).catch((err: unknown) => this.emit({ type: 'error', message: `could not archive the run: ${errorMessage(err)}` }));
      else this.launch(effect);
    }
    if (isTerminal(state.phase) && !isTerminal(before.phase)) this.emit({ type: 'finished', phase: state.phase as 'DONE' | 'CANCELLED' });
    return true;
  }

  private async perform(effect: Effect, state: WorkflowState): Promise<void> {
    const f = this.deps.files;
    switch (effect.type) {
      case 'stop_agents':
        this.generation++;
        await Promise.allSettled(Object.values(this.deps.agents).map((a) => a.stop()));
        return;
      case 'write_plan':
        return f.writePlan(effect.text, effect.iteration);
      case 'write_comments':
        return f.writeComments(effect.text, effect.verdict, effect.iteration);
      case 'set_plan_status':
        return f.setPlanStatus(effect.status);
      case 'mark_step_done':
        return f.markStepDone(effect.step, effect.commit);
      case 'log':
        return f.appendLog(effect.title, effect.lines ?? []);
      case 'notify':
        this.emit({ type: 'notice', notice: effect.notice });
        return;
      case 'archive': {
        const where = await f.archive(state);
        this.emit({ type: 'notice', notice: { kind: 'info', message: `Run archived to ${where}` } });
        return;
      }
      case 'run_agent':
        return this.runRound(effect.role, effect.action);
      case 'commit_step':
        return this.commitStep(effect.step, effect.summary);
      case 'load_steps': {
        const steps = await f.readSteps();
        await this.dispatch({ type: 'steps_loaded', steps });
        return;
      }
    }
  }

  /** Starts a slow effect without blocking the event queue; its outcome comes back as an event. */
  private launch(effect: Effect): void {
    const p: Promise<void> = this.perform(effect, this.current)
      .catch(async (err: unknown) => {
        if (this.closing) return;
        const action = effect.type === 'run_agent' ? effect.action : effect.type === 'commit_step' ? this.current.inflight : null;
        await this.dispatch({ type: 'engine_failed', action, message: errorMessage(err) });
      })
      .finally(() => this.background.delete(p));
    this.background.add(p);
  }

  private async commitStep(step: number, summary: string): Promise<void> {
    const gen = this.generation;
    const commit = await this.deps.git.commitStep({ runId: this.current.runId, step, summary });
    if (gen !== this.generation || this.closing) return;
    await this.dispatch({ type: 'step_committed', step, commit });
  }

  private async runRound(role: Role, action: Action): Promise<void> {
    const gen = this.generation;
    const s = this.current;
    const prompt = await buildTurnPrompt(this.deps.prompts, this.deps.files, s, action);
    const turn: AgentTurn = {
      prompt,
      cwd: this.deps.repoRoot,
      access: action.kind === 'execute_step' ? 'workspace-write' : 'read-only',
      meta: {
        role,
        kind: action.kind === 'commit_step' ? 'execute_step' : action.kind,
        iteration: action.kind === 'review' ? s.iteration + 1 : s.iteration,
        step: action.kind === 'execute_step' ? action.step : null,
      },
    };
    const started = Date.now();
    this.roundUsage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0, durationMs: 0, calls: 0 };
    let outcome = await this.attempt(role, gen, turn);
    const retry = this.deps.retry ?? { infraRetries: 0, backoffMs: 0 };
    for (let k = 1; outcome.kind === 'failed' && outcome.failure === 'infra' && k <= retry.infraRetries && gen === this.generation; k++) {
      const delay = retry.backoffMs * 2 ** (k - 1);
      this.emit({ type: 'notice', notice: { kind: 'info', message: `The ${role} hit a service error (${outcome.message}); retrying in ${Math.round(delay / 1000)} s (${k}/${retry.infraRetries}).` } });
      this.deps.files.debug('engine', `infra retry ${k}/${retry.infraRetries} for ${role} after: ${outcome.message}`);
      if (!(await this.sleep(delay, gen))) return;
      outcome = await this.attempt(role, gen, turn);
    }
    if (gen !== this.generation || this.closing || outcome.kind === 'stopped') return;
    const usage = { ...this.roundUsage, durationMs: Date.now() - started };
    this.emit({ type: 'notice', notice: { kind: 'round', role, action: action.kind, outcome: outcome.kind, usage } });
    if (outcome.kind === 'done') await this.dispatch({ type: 'agent_done', role, action, text: outcome.text });
    else if (outcome.kind === 'question') await this.dispatch({ type: 'agent_question', role, action, text: outcome.text });
    else await this.dispatch({ type: 'agent_failed', role, action, kind: outcome.failure, message: outcome.message });
  }

  /** One try at a round: in the role's session if it has one, else (or if that session is gone) a new one. */
  private async attempt(role: Role, gen: number, turn: AgentTurn): Promise<RoundOutcome> {
    const agent = this.deps.agents[role];
    const sessionId = this.current.sessions[role];
    const outcome = await this.consume(role, turn.meta.kind, gen, sessionId ? agent.resume(sessionId, turn) : agent.start(turn));
    if (outcome.kind !== 'failed' || outcome.failure !== 'session_lost' || !sessionId || gen !== this.generation) return outcome;
    this.emit({ type: 'notice', notice: { kind: 'info', message: `The ${role}'s session could not be resumed; starting a new one from plan.md and comments.md.` } });
    const recovery = await recoveryPrompt(this.deps.prompts, this.deps.files, this.current, turn.prompt);
    return this.consume(role, turn.meta.kind, gen, agent.start({ ...turn, prompt: recovery }));
  }

  private addRoundUsage(ev: Extract<AgentEvent, { type: 'usage' }>): void {
    const u = this.roundUsage;
    u.inputTokens += ev.inputTokens;
    u.outputTokens += ev.outputTokens;
    u.cachedTokens += ev.cachedTokens ?? 0;
    u.costUsd += ev.costUsd ?? 0;
    u.calls += 1;
  }

  /** Waits `ms`; false when agents were stopped meanwhile. */
  private async sleep(ms: number, gen: number): Promise<boolean> {
    const step = 50;
    for (let waited = 0; waited < ms; waited += step) {
      if (gen !== this.generation || this.closing) return false;
      await new Promise((r) => setTimeout(r, Math.min(step, ms - waited)));
    }
    return gen === this.generation && !this.closing;
  }

  private async consume(role: Role, kind: TurnKind, gen: number, stream: AsyncIterable<AgentEvent>): Promise<RoundOutcome> {
    let question: string | null = null;
    let error: { failure: FailureKind; message: string } | null = null;
    for await (const ev of stream) {
      if (gen !== this.generation) return { kind: 'stopped' };
      this.deps.files.debug(role, JSON.stringify(ev));
      this.emit({ type: 'agent_event', role, event: ev });
      switch (ev.type) {
        case 'session':
          await this.dispatch({ type: 'session', role, sessionId: ev.sessionId });
          break;
        case 'usage':
          this.addRoundUsage(ev);
          await this.dispatch({
            type: 'usage',
            role,
            inputTokens: ev.inputTokens,
            outputTokens: ev.outputTokens,
            cachedTokens: ev.cachedTokens ?? 0,
            costUsd: ev.costUsd ?? 0,
            durationMs: ev.durationMs ?? 0,
          });
          break;
        case 'question':
          question = ev.text;
          break;
        case 'error':
          error = { failure: ev.kind, message: ev.resetAt ? `${ev.message} (the limit resets at ${ev.resetAt})` : ev.message };
          break;
        case 'done':
          if (ev.sessionId) await this.dispatch({ type: 'session', role, sessionId: ev.sessionId });
          if (question !== null) return { kind: 'question', text: question };
          {
            const asked = detectQuestion(kind, ev.text);
            if (asked !== null) return { kind: 'question', text: asked };
          }
          return { kind: 'done', text: ev.text };
        default:
          break;
      }
    }
    if (gen !== this.generation || this.closing) return { kind: 'stopped' };
    if (error) return { kind: 'failed', ...error };
    return { kind: 'failed', failure: 'agent_error', message: `the ${role} ended its turn without an answer` };
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
