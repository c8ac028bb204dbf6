// The effect runner: feeds events through `transition`, persists the state, performs the effects
// and turns their outcomes back into events. One event at a time, in order.
import type { Effect, EngineEvent, EngineOutput, RoundUsage } from '../core/events.js';
import type { Artifacts, CommandCheck, CommandVerdict, Prompts, StepCommitResult, StepWorkspace, TestRunner, WorkflowFiles } from '../core/ports.js';
import { CommandHolds, DENY_ADVICE, type CommandPolicy } from './command-gate.js';
import { buildTurnPrompt, recoveryPrompt } from './turn-prompts.js';
import { effectFor } from '../core/approval.js';
import { InvalidEventError, isTerminal, transition, type TransitionOptions } from '../core/transition.js';
import { detectQuestion } from '../core/question-detect.js';
import { stepSubject } from '../core/plan-steps.js';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { isAgentAction, type Action, type Agent, type AgentEvent, type AgentTurn, type FailureKind, type Role, type StepFailureCategory, type TurnKind, type WorkflowState } from '../core/types.js';

export interface EngineDeps {
  repoRoot: string;
  files: WorkflowFiles;
  prompts: Prompts;
  agents: Record<Role, Agent>;
  options: TransitionOptions;
  /** Service errors (failure kind `infra`) are retried this many times, waiting backoffMs, 2×, 4×, … */
  retry?: { infraRetries: number; backoffMs: number };
  /** Snapshots the work tree before a step, commits only the step's changes, rolls a step back. */
  workspace: StepWorkspace;
  /** Runs the tests after each step; without it, steps are not tested. */
  tests?: TestRunner;
  /** Per step attempt artifacts under runs/<run-id>/. */
  artifacts?: Artifacts;
  /** The [safety] policy for commands; without it every command is denied (fail closed). */
  commands?: CommandPolicy;
  now?: () => Date;
}

type Listener = (out: EngineOutput) => void;

/** Effects that change files are done before the state is saved, so a crash replays them rather than losing them. */
const BEFORE_SAVE: ReadonlySet<Effect['type']> = new Set(['stop_agents', 'write_plan', 'write_comments', 'set_plan_status', 'mark_step_done', 'mark_step_skipped', 'accept_edit', 'log', 'notify']);

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
  /** Steps this engine began (snapshotted) and has not committed: their commit needs no search for an earlier one. */
  private readonly begunHere = new Set<number>();
  /** Snapshots begun for a step's first round while the files of the event that decided it were written. */
  private readonly snapshotsAhead = new WeakMap<Action, Promise<string>>();
  private readonly snapshotsUnderWay = new Set<Promise<void>>();
  private warmedUp = false;
  private closing = false;
  /** What the agent round under way has used so far (one round runs at a time). */
  private roundUsage: RoundUsage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0, durationMs: 0, calls: 0 };
  /** The state in memory has changes not yet in state.json. */
  private unsaved = false;
  private readonly holds = new CommandHolds();
  /** Where the agent events of the round under way are recorded (a step attempt's artifacts), if anywhere. */
  private eventSink: ((ev: AgentEvent) => void) | null = null;

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
    if (this.current.pendingCommand) {
      // The agent that asked is gone with the old process; its round is run again.
      this.current = { ...this.current, pendingCommand: null };
      this.unsaved = true;
    }
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
    this.holds.denyAll('agent-collab is shutting down');
    await this.deps.tests?.stop().catch(() => undefined);
    await Promise.allSettled(Object.values(this.deps.agents).map((a) => a.stop()));
    await Promise.allSettled([...this.background, ...this.snapshotsUnderWay]);
    await this.queue;
    await this.deps.artifacts?.flush().catch(() => undefined);
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
    this.snapshotAhead(state, result.effects, event.type === 'step_committed' ? event.treeAfter : undefined);
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

  /**
   * A step's first round is decided: its base snapshot (two git processes) starts now, beside the plan, log and
   * state writes that come first, rather than after them. Not when agents are being stopped (one may still be
   * writing files) or when the step has begun already (a retry keeps its base). When the previous step's commit
   * has just been applied and it ran no hook (`treeAfter`), the working tree is the snapshot that commit took: the
   * next step goes on at once from there. A step that waits for the person first gets a snapshot of its own.
   */
  private snapshotAhead(state: WorkflowState, effects: readonly Effect[], treeAfterCommit?: string): void {
    if (effects.some((e) => e.type === 'stop_agents')) return;
    for (const e of effects) {
      if (e.type !== 'run_agent' || e.action.kind !== 'execute_step' || state.stepRun?.step === e.action.step) continue;
      const tree = treeAfterCommit !== undefined ? Promise.resolve(treeAfterCommit) : this.deps.workspace.snapshot();
      // A failure is reported where the snapshot is used; close() waits for it like for any effect under way.
      const settled: Promise<void> = tree.then(
        () => undefined,
        () => undefined,
      );
      this.snapshotsUnderWay.add(settled);
      void settled.finally(() => this.snapshotsUnderWay.delete(settled));
      this.snapshotsAhead.set(e.action, tree);
    }
  }

  private async perform(effect: Effect, state: WorkflowState): Promise<void> {
    const f = this.deps.files;
    switch (effect.type) {
      case 'stop_agents':
        this.generation++;
        this.holds.denyAll('the step was stopped');
        await this.deps.tests?.stop().catch(() => undefined);
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
      case 'mark_step_skipped':
        return f.markStepSkipped(effect.step);
      case 'accept_edit':
        return f.acceptEdit(effect.file);
      case 'answer_command':
        this.holds.answer(effect.id, effect.allow ? { allow: true } : { allow: false, reason: effect.reason });
        return;
      case 'run_tests':
        return this.runTests(effect.step, effect.attempt);
      case 'rollback_step':
        return this.rollbackStep(effect.step);
      case 'merge_external':
        return this.resolveExternal(effect);
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
        return this.commitStep(effect.step, effect.summary, effect.allowSecrets);
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
        const action = effect.type === 'run_agent' ? effect.action : this.current.inflight;
        await this.dispatch({ type: 'engine_failed', action, message: errorMessage(err) });
      })
      .finally(() => this.background.delete(p));
    this.background.add(p);
  }

  private stale(gen: number): boolean {
    return gen !== this.generation || this.closing;
  }

  private nowIso(): string {
    return (this.deps.now?.() ?? new Date()).toISOString();
  }

  private timeline(line: string): void {
    this.deps.artifacts?.timeline(line).catch((err: unknown) => this.deps.files.debug('engine', `timeline: ${errorMessage(err)}`));
  }

  /**
   * Records an artifact without making the run wait for the disk: artifacts are for looking back, and close()
   * waits until they are written.
   */
  private writeArtifact(step: number, attempt: number, name: string, content: string): void {
    this.deps.artifacts?.write(step, attempt, name, content).catch((err: unknown) => this.deps.files.debug('engine', `artifact ${name}: ${errorMessage(err)}`));
  }

  /** patch.diff and verdict.json of a step attempt. */
  private async recordAttempt(step: number, attempt: number, verdict: Record<string, unknown>): Promise<void> {
    if (!this.deps.artifacts) return;
    const base = this.current.stepRun?.baseTree;
    if (base) {
      const changes = await this.deps.workspace.changedSince(base).catch(() => null);
      if (changes) this.writeArtifact(step, attempt, 'patch.diff', changes.patch);
    }
    this.writeArtifact(step, attempt, 'verdict.json', `${JSON.stringify({ step, attempt, ...verdict }, null, 2)}\n`);
  }

  /** Before a step's first attempt: the working tree is snapshotted so the step's own changes can be told apart. */
  private async beginStep(step: number, gen: number, ahead: Promise<string> | undefined): Promise<boolean> {
    if (this.current.stepRun?.step === step) return true;
    const baseTree = await (ahead ?? this.deps.workspace.snapshot());
    if (this.stale(gen)) return false;
    this.timeline(`step ${step} started`);
    await this.dispatch({ type: 'step_started', step, baseTree, at: this.nowIso() });
    if (this.current.stepRun?.step === step && this.current.stepRun.baseTree === baseTree) this.begunHere.add(step);
    return !this.stale(gen) && this.current.stepRun?.step === step;
  }

  private async runTests(step: number, attempt: number): Promise<void> {
    const gen = this.generation;
    const tests = this.deps.tests;
    const planned = this.current.testCommand;
    const command = planned || (tests ? ((await tests.resolve())?.command ?? null) : null);
    if (this.stale(gen)) return;
    if (!command || !tests) {
      await this.dispatch({ type: 'no_test_command', step });
      return;
    }
    // agent-collab's own commands go through the same policy as the agents'.
    const verdict = await this.checkCommand({ role: 'agent-collab', command, cwd: this.deps.repoRoot });
    if (this.stale(gen)) return;
    if (!verdict.allow) {
      await this.recordAttempt(step, attempt, { result: 'fail', category: 'policy_block', command, reason: verdict.reason });
      await this.dispatch({ type: 'attempt_failed', step, attempt, category: 'policy_block', message: `the test command \`${command}\` was denied: ${verdict.reason}` });
      return;
    }
    this.timeline(`step ${step} attempt ${attempt}: running \`${command}\``);
    const dir = this.deps.artifacts ? await this.deps.artifacts.attemptDir(step, attempt).catch(() => null) : null;
    const r = await tests.run(command, { fullOutputFile: dir ? path.join(dir, 'test-output.txt') : null });
    if (this.stale(gen)) return;
    const category = r.passed ? null : r.timedOut ? 'timeout' : 'test_failure';
    await this.recordAttempt(step, attempt, { result: r.passed ? 'pass' : 'fail', category, command, exitCode: r.exitCode, durationMs: r.durationMs });
    this.timeline(`step ${step} attempt ${attempt}: tests ${r.passed ? 'passed' : r.timedOut ? 'timed out' : 'failed'} (${(r.durationMs / 1000).toFixed(1)} s)`);
    await this.dispatch({ type: 'tests_done', step, attempt, command, passed: r.passed, output: r.output, durationMs: r.durationMs, timedOut: r.timedOut });
  }

  private async commitStep(step: number, summary: string, allowSecrets: boolean): Promise<void> {
    const gen = this.generation;
    const ws = this.deps.workspace;
    const run = this.current.stepRun;
    const base = run?.step === step ? run.baseTree : null;
    // agent-collab's own commands pass the same [safety] check as the agents'.
    const allowed = await this.checkCommand({ role: 'agent-collab', command: `git commit -m ${shellQuote(stepSubject(step, summary))}`, cwd: this.deps.repoRoot });
    if (this.stale(gen)) return;
    if (!allowed.allow) {
      await this.dispatch({ type: 'commit_failed', step, message: `agent-collab's own \`git commit\` of step ${step} was denied: ${allowed.reason}` });
      return;
    }
    // A step this process began and has not committed cannot have a commit from an earlier process.
    const checkExisting = !this.begunHere.has(step);
    let r: StepCommitResult | null = null;
    try {
      r = await ws.commitStep({ runId: this.current.runId, step, summary, baseTree: base, allowSecrets, checkExisting });
    } finally {
      // Once a commit may exist (made, or an error after `git commit` ran), any further attempt looks for it first.
      if (r === null || r.kind === 'committed') this.begunHere.delete(step);
    }
    if (this.stale(gen)) return;
    if (run?.step === step && run.testResult === 'none') {
      if (r.kind === 'committed' && r.patch !== undefined) this.writeArtifact(step, run.attempt, 'patch.diff', r.patch);
      this.writeArtifact(step, run.attempt, 'verdict.json', `${JSON.stringify({ step, attempt: run.attempt, result: 'pass', category: null, command: null, note: 'no test command' }, null, 2)}\n`);
    }
    switch (r.kind) {
      case 'committed':
      case 'nothing': {
        const commit = r.kind === 'committed' ? r.hash : null;
        this.timeline(commit ? `step ${step} committed as ${commit.slice(0, 7)}` : `step ${step}: no changes, nothing committed`);
        await this.dispatch({ type: 'step_committed', step, commit, files: r.kind === 'nothing' ? [] : r.files, at: this.nowIso(), ...(r.treeAfter ? { treeAfter: r.treeAfter } : {}) });
        return;
      }
      case 'secrets':
        this.timeline(`step ${step}: commit held, possible secret (${r.findings.length})`);
        await this.dispatch({ type: 'secrets_found', step, findings: r.findings });
        return;
      case 'failed':
        this.timeline(`step ${step}: commit failed: ${r.message}`);
        await this.dispatch({ type: 'commit_failed', step, message: r.message });
        return;
    }
  }

  private async rollbackStep(step: number): Promise<void> {
    const gen = this.generation;
    const run = this.current.stepRun;
    const base = run?.step === step ? run.baseTree : null;
    if (!base) throw new Error(`step ${step} has no snapshot to roll back to; restore the files with git yourself`);
    const allowed = await this.checkCommand({ role: 'agent-collab', command: `git restore --source=${base} --worktree -- .`, cwd: this.deps.repoRoot });
    if (this.stale(gen)) return;
    if (!allowed.allow) throw new Error(`agent-collab's own \`git restore\` for the rollback of step ${step} was denied: ${allowed.reason}`);
    const changes = await this.deps.workspace.changedSince(base);
    this.writeArtifact(step, run?.attempt ?? 1, 'rolled-back.patch.diff', changes.patch);
    const files = await this.deps.workspace.rollback(base);
    if (this.stale(gen)) return;
    this.timeline(`step ${step} rolled back (${files.length} file(s))`);
    await this.dispatch({ type: 'step_rolled_back', step, files });
  }

  /** plan.md or comments.md, when the person changed it since agent-collab last wrote it and this round writes it anew. */
  private async externallyChanged(action: Action): Promise<'plan' | 'comments' | null> {
    const file = action.kind === 'write_plan' || action.kind === 'respond' ? 'plan' : action.kind === 'review' ? 'comments' : null;
    if (!file) return null;
    return (await this.deps.files.changedOutside(file)) ? file : null;
  }

  /** The person chose how plan.md / comments.md changed outside should meet the agent's new version. */
  private async resolveExternal(effect: Extract<Effect, { type: 'merge_external' }>): Promise<void> {
    const gen = this.generation;
    const text = await this.deps.files.resolveExternal(effect.file, effect.text, effect.choice);
    if (this.stale(gen)) return;
    await this.dispatch({ type: 'agent_done', role: effect.role, action: effect.action, text });
  }

  /**
   * The gate every command passes before it runs (the agents' through their PreToolUse hook, agent-collab's own
   * test command directly): the [safety] policy, then — for blocked or confirm-required commands — the person,
   * or in a headless run the `--allow-cmd` prefixes. Never throws; anything unexpected denies.
   */
  async checkCommand(check: CommandCheck): Promise<CommandVerdict> {
    try {
      return await this.judgeCommand(check);
    } catch (err) {
      this.deps.files.debug('engine', `command check failed: ${errorMessage(err)}`);
      return { allow: false, reason: `agent-collab could not check the command (${errorMessage(err)}), so it was denied` };
    }
  }

  private async judgeCommand(check: CommandCheck): Promise<CommandVerdict> {
    const policy = this.deps.commands;
    if (!policy) return { allow: false, reason: 'no command policy is loaded, so agent-collab denies every command' };
    await policy.ready();
    const v = policy.evaluate(check.command);
    this.deps.files.debug('policy', `${check.role}: ${v.decision} ${JSON.stringify(check.command)}${v.rule ? ` (rule "${v.rule}")` : ''}`);
    if (v.decision === 'allow') return { allow: true };
    const notice = (decision: 'allow' | 'deny', reason: string): void =>
      this.emit({ type: 'notice', notice: { kind: 'command', role: check.role, command: check.command, decision, rule: v.rule, reason } });
    const allowed = this.current.allowedCommands;
    if (v.decision === 'confirm' && (allowed.includes(check.command) || policy.allowedByPrefix(check.command, [...allowed, ...policy.allowPrefixes]))) {
      notice('allow', 'allowed earlier in this run');
      return { allow: true };
    }
    const rule = v.rule ?? 'policy';
    if (!policy.interactive) {
      const reason =
        v.decision === 'block'
          ? `${v.reason}; ${DENY_ADVICE}`
          : `needs the person's confirmation (rule "${rule}") and nobody can confirm in this headless run (the person can allow it with --allow-cmd); ${DENY_ADVICE}`;
      notice('deny', reason);
      this.timeline(`denied ${check.role}'s command \`${check.command}\` (rule "${rule}")`);
      await this.dispatch({ type: 'command_denied', id: null, command: check.command, reason });
      return { allow: false, reason };
    }
    return this.holds.serialize(async () => {
      const id = randomUUID();
      const pending = { id, role: check.role, command: check.command, decision: v.decision as 'block' | 'confirm', rule, reason: v.reason };
      const held = await this.dispatch({ type: 'command_held', command: pending });
      if (!held) return { allow: false, reason: 'the run is no longer at a point where a command can run' };
      this.timeline(`held ${check.role}'s command \`${check.command}\` for the person (rule "${rule}")`);
      const verdict = await this.holds.wait(id, policy.confirmTimeoutMs, () => {
        void this.dispatch({ type: 'command_denied', id, command: check.command, reason: 'nobody answered in time' });
      });
      notice(verdict.allow ? 'allow' : 'deny', verdict.allow ? 'the person allowed it' : verdict.reason);
      this.timeline(`${verdict.allow ? 'allowed' : 'denied'} \`${check.command}\``);
      return verdict;
    });
  }

  private async runRound(role: Role, action: Action): Promise<void> {
    const gen = this.generation;
    if (!isAgentAction(action)) throw new Error(`${action.kind} is not an agent round`);
    if (action.kind === 'execute_step' && !(await this.beginStep(action.step, gen, this.snapshotsAhead.get(action)))) return;
    const s = this.current;
    const prompt = await buildTurnPrompt(this.deps.prompts, this.deps.files, s, action, 1 + (this.deps.options.execution?.maxRetries ?? 3));
    const step = action.kind === 'execute_step' || action.kind === 'ask_test_command' ? action.step : null;
    const turn: AgentTurn = {
      prompt,
      cwd: this.deps.repoRoot,
      access: action.kind === 'execute_step' ? 'workspace-write' : 'read-only',
      meta: { role, kind: action.kind, iteration: action.kind === 'review' ? s.iteration + 1 : s.iteration, step },
    };
    const attempt = s.stepRun?.attempt ?? 1;
    if (action.kind === 'execute_step' && this.deps.artifacts) {
      const artifacts = this.deps.artifacts;
      this.writeArtifact(action.step, attempt, 'prompt.md', prompt);
      this.timeline(`step ${action.step} attempt ${attempt}: ${role} at work`);
      this.eventSink = (ev) => artifacts.appendEvent(action.step, attempt, ev);
    }
    try {
      await this.playRound(role, action, gen, turn, attempt);
    } finally {
      this.eventSink = null;
    }
  }

  private async playRound(role: Role, action: Action, gen: number, turn: AgentTurn, attempt: number): Promise<void> {
    const started = Date.now();
    this.roundUsage = { inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0, durationMs: 0, calls: 0 };
    let outcome = await this.attempt(role, gen, turn);
    const retry = this.deps.retry ?? { infraRetries: 0, backoffMs: 0 };
    for (let k = 1; outcome.kind === 'failed' && outcome.failure === 'infra' && k <= retry.infraRetries && gen === this.generation; k++) {
      const delay = retry.backoffMs * 2 ** (k - 1);
      this.emit({ type: 'notice', notice: { kind: 'info', message: `The ${role} hit a service error (${outcome.message}); retrying in ${delay < 1000 ? `${delay} ms` : `${Math.round(delay / 1000)} s`} (${k}/${retry.infraRetries}).` } });
      this.deps.files.debug('engine', `infra retry ${k}/${retry.infraRetries} for ${role} after: ${outcome.message}`);
      if (!(await this.sleep(delay, gen))) return;
      outcome = await this.attempt(role, gen, turn);
    }
    if (gen !== this.generation || this.closing || outcome.kind === 'stopped') return;
    const usage = { ...this.roundUsage, durationMs: Date.now() - started };
    this.emit({ type: 'notice', notice: { kind: 'round', role, action: action.kind, outcome: outcome.kind, usage } });
    if (outcome.kind === 'failed' && action.kind === 'execute_step') {
      await this.recordAttempt(action.step, attempt, { result: 'fail', category: failureCategory(outcome.failure), failure: outcome.failure, message: outcome.message });
    }
    const changed = outcome.kind === 'done' ? await this.externallyChanged(action) : null;
    if (this.stale(gen)) return;
    if (changed && outcome.kind === 'done') await this.dispatch({ type: 'external_change', role, action, file: changed, text: outcome.text });
    else if (outcome.kind === 'done') await this.dispatch({ type: 'agent_done', role, action, text: outcome.text });
    else if (outcome.kind === 'question') await this.dispatch({ type: 'agent_question', role, action, text: outcome.text });
    else await this.dispatch({ type: 'agent_failed', role, action, kind: outcome.failure, message: outcome.message });
  }

  /** One try at a round: in the role's session if it has one, else (or if that session is gone) a new one. */
  private async attempt(role: Role, gen: number, turn: AgentTurn): Promise<RoundOutcome> {
    const agent = this.deps.agents[role];
    const sessionId = this.current.sessions[role];
    const running = this.consume(role, turn.meta.kind, gen, sessionId ? agent.resume(sessionId, turn) : agent.start(turn));
    this.warmUp();
    const outcome = await running;
    if (outcome.kind !== 'failed' || outcome.failure !== 'session_lost' || !sessionId || gen !== this.generation) return outcome;
    this.emit({ type: 'notice', notice: { kind: 'info', message: `The ${role}'s session could not be resumed; starting a new one from plan.md and comments.md.` } });
    const recovery = await recoveryPrompt(this.deps.prompts, this.deps.files, this.current, turn.prompt);
    return this.consume(role, turn.meta.kind, gen, agent.start({ ...turn, prompt: recovery }));
  }

  /**
   * Loads what loads lazily after an agent has been started: the command policy's shell parser (~30 ms of this
   * thread), run once to compile its code paths (~20 ms), and the plan files' frontmatter parser (~15 ms). The agent
   * needs seconds before it asks to run a command or answers, and these loads no longer delay its start.
   */
  private warmUp(): void {
    if (this.warmedUp) return;
    this.warmedUp = true;
    const policy = this.deps.commands;
    policy
      ?.ready()
      .then(() => policy.evaluate('git commit -m "warm up" && echo ok > /dev/null'))
      .catch((err: unknown) => this.deps.files.debug('policy', errorMessage(err)));
    this.deps.files.warmUp?.().catch((err: unknown) => this.deps.files.debug('engine', `warm-up: ${errorMessage(err)}`));
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
      this.eventSink?.(ev);
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

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, "'\\''")}'`;
}

function failureCategory(kind: FailureKind): StepFailureCategory {
  if (kind === 'timeout' || kind === 'idle') return 'timeout';
  if (kind === 'infra' || kind === 'usage_limit') return 'infra';
  return 'agent_error';
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
