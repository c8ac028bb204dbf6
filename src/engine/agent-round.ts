// One agent round: its prompt, the agent's streamed events (session ids and usage saved as they come), infra
// retries with backoff, a new session when the saved one is lost, and the event the round ends in.
// The round runs under its signal: once that is aborted (stop, cancel, close) nothing of it is dispatched.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Effect, RoundUsage } from '../core/events.js';
import { boundDiff } from '../core/code-diff.js';
import type { ReviewChanges, ReviewRange } from '../core/ports.js';
import { hasMergeConflictMarkers } from '../core/conflict-markers.js';
import { detectQuestion } from '../core/question-detect.js';
import {
  isAgentAction,
  type Action,
  type AgentEvent,
  type AgentTurn,
  type FailureKind,
  type Role,
  type StepFailureCategory,
  type TurnKind,
} from '../core/types.js';
import type { EngineContext } from './context.js';
import type { RunRecords } from './run-records.js';
import type { StepExecutor } from './step-executor.js';
import { DEFAULT_MAX_RETRY_WAIT_SECONDS, retryStop } from './retry-budget.js';
import { buildTurnPrompt, recoveryPrompt } from './turn-prompts.js';
import { RoundBudgetClock } from './round-budget.js';

/** About 10k tokens of diff: a code review's prompt stays well within any model's context. */
const DIFF_MAX_CHARS = 40_000;
/** At most this much of a diff is read (and held in memory) before it is bounded for the reviewer. */
const DIFF_READ_MAX_BYTES = 2 * 1024 * 1024;

/** The reviewer's diff text: bounded, saying what was not read or that there is nothing to read. */
function reviewText(changes: ReviewChanges | null): string {
  if (!changes) return '(the diff is not available: no snapshot was taken before the change)';
  if (changes.files.length === 0) return '(no changes: nothing was committed or changed)';
  const bounded = boundDiff(changes.patch, DIFF_MAX_CHARS);
  if (!changes.truncated) return bounded.text;
  const unread = changes.files.filter((f) => !bounded.files.includes(f));
  return `${bounded.text}\n[… the diff was read only up to ${DIFF_READ_MAX_BYTES} bytes; ${unread.length} changed file(s) not read]`;
}

type RoundOutcome =
  | { kind: 'done'; text: string }
  | { kind: 'question'; text: string }
  | { kind: 'failed'; failure: FailureKind; message: string; resetAt?: string }
  | { kind: 'stopped' };

/** One round under way: who plays it, its signal, what it has used, and where its events are recorded. */
interface Play {
  role: Role;
  kind: TurnKind;
  signal: AbortSignal;
  usage: RoundUsage;
  record: ((ev: AgentEvent) => void) | null;
}

export class AgentRounds {
  constructor(
    private readonly ctx: EngineContext,
    private readonly records: RunRecords,
    private readonly steps: StepExecutor,
  ) {}

  async run(role: Role, action: Action, signal: AbortSignal): Promise<void> {
    if (!isAgentAction(action)) throw new Error(`${action.kind} is not an agent round`);
    if (action.kind === 'execute_step' && !(await this.steps.begin(action.step, signal))) return;
    if (action.kind === 'code_review' && !(await this.takeDiff(action.step, signal))) return;
    const s = this.ctx.state();
    const { deps } = this.ctx;
    const prompt = await buildTurnPrompt(
      deps.prompts,
      deps.files,
      s,
      action,
      1 + (deps.options.execution?.maxRetries ?? 3),
    );
    await this.refuseConflicts(prompt);
    if (signal.aborted) return;
    const turn: AgentTurn = {
      prompt,
      cwd: deps.repoRoot,
      access: action.kind === 'execute_step' ? 'workspace-write' : 'read-only',
      meta: {
        role,
        kind: action.kind,
        iteration: action.kind === 'review' ? s.iteration + 1 : s.iteration,
        step:
          action.kind === 'execute_step' || action.kind === 'ask_test_command' || action.kind === 'code_review'
            ? action.step
            : null,
      },
    };
    const attempt = s.stepRun?.attempt ?? 1;
    const play: Play = {
      role,
      kind: action.kind,
      signal,
      usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0, durationMs: 0, calls: 0 },
      record: null,
    };
    if (action.kind === 'execute_step' && this.records.enabled) {
      this.records.write(action.step, attempt, 'prompt.md', prompt);
      this.records.timeline(`step ${action.step} attempt ${attempt}: ${role} at work`);
      play.record = (ev) => this.records.appendEvent(action.step, attempt, ev);
    }
    if (turn.access === 'workspace-write' && action.kind === 'execute_step') {
      await this.steps.guardTurn(action.step, signal);
      if (signal.aborted) return;
    }
    const started = Date.now();
    const agentTime = new RoundBudgetClock(this.ctx, signal, role);
    const outcome = await this.withRetries(play, turn).finally(() => agentTime.stop());
    if (signal.aborted || outcome.kind === 'stopped') {
      await agentTime.stopped();
      if (action.kind === 'execute_step')
        await this.steps
          .undoAfterStop(role, action.step, attempt)
          .catch((err: unknown) => deps.files.debug('engine', `undo after a stopped turn: ${String(err)}`));
      return;
    }
    this.ctx.emit({
      type: 'notice',
      notice: {
        kind: 'round',
        role,
        action: action.kind,
        outcome: outcome.kind,
        usage: { ...play.usage, durationMs: Date.now() - started },
      },
    });
    // Whatever the turn ended in (an answer, a question, a failure), what it changed that it must not is undone
    // first, before agent-collab runs git on the working tree again (a planted hook or git config would run there).
    if (action.kind === 'execute_step' && (await this.steps.checkGuard(action.step, attempt, signal, false))) return;
    if (outcome.kind === 'failed' && action.kind === 'execute_step') {
      await this.records.attempt(action.step, attempt, this.ctx.state().stepRun?.baseTree, {
        result: 'fail',
        category: failureCategory(outcome.failure),
        failure: outcome.failure,
        message: outcome.message,
      });
    }
    const changed = outcome.kind === 'done' ? await this.changedOutside(action) : null;
    await agentTime.end();
    if (signal.aborted) return;
    if (changed && outcome.kind === 'done')
      await this.ctx.dispatch({ type: 'external_change', role, action, file: changed, text: outcome.text });
    else if (outcome.kind === 'done') await this.ctx.dispatch({ type: 'agent_done', role, action, text: outcome.text });
    else if (outcome.kind === 'question')
      await this.ctx.dispatch({ type: 'agent_question', role, action, text: outcome.text });
    else
      await this.ctx.dispatch({
        type: 'agent_failed',
        role,
        action,
        kind: outcome.failure,
        message: outcome.message,
        // A usage limit's reset decides whether the run waits for it (core/usage-limit.ts); `at` is the engine's clock.
        ...(outcome.resetAt && { resetAt: outcome.resetAt }),
        at: this.ctx.nowIso(),
      });
  }

  /**
   * The diff a code review reads, bounded, into the state (the prompt and the person's view read it there): the
   * step's changes since its snapshot, or what the run committed (never the person's own uncommitted edits). Read
   * up to a cap and stopped with the round. False when the round cannot go on.
   */
  private async takeDiff(step: number | null, signal: AbortSignal): Promise<boolean> {
    const s = this.ctx.state();
    const base = step === null ? null : s.stepRun?.step === step ? s.stepRun.baseTree : null;
    const range: ReviewRange | null =
      step === null
        ? { kind: 'run', runId: s.runId, withWorkingTree: s.codeReview?.edited === true }
        : base
          ? { kind: 'step', baseTree: base }
          : null;
    const changes = range
      ? await this.ctx.deps.workspace
          .reviewDiff(range, { signal, maxBytes: DIFF_READ_MAX_BYTES })
          .catch((err: unknown) => {
            // A stopped round ends git on purpose: that is no failure of the diff.
            if (signal.aborted) return null;
            throw err;
          })
      : null;
    if (signal.aborted) return false;
    const ok = await this.ctx.dispatch({
      type: 'code_diff',
      step,
      diff: reviewText(changes),
      files: changes?.files ?? [],
    });
    return ok && !signal.aborted;
  }

  /** The person chose how plan.md / comments.md changed outside should meet the agent's new version. */
  async mergeExternal(effect: Extract<Effect, { type: 'merge_external' }>, signal: AbortSignal): Promise<void> {
    const r = await this.ctx.deps.files.resolveExternal(effect.file, effect.text, effect.choice);
    if (signal.aborted) return;
    const { role, action, file, text } = effect;
    if (typeof r === 'string') await this.ctx.dispatch({ type: 'agent_done', role, action, text: r });
    else
      await this.ctx.dispatch({
        type: 'merge_conflicts',
        role,
        action,
        file,
        text,
        yours: r.yours,
        conflicts: r.conflicts,
      });
  }

  /** The person answered a merge that left conflicts: the file as they resolved it, or one side whole. */
  async resolveConflicts(effect: Extract<Effect, { type: 'resolve_conflicts' }>, signal: AbortSignal): Promise<void> {
    const { role, action, file, choice } = effect;
    const { files } = this.ctx.deps;
    let text: string;
    if (choice === 'keep-mine') text = effect.yours;
    else if (choice === 'keep-agent') text = effect.text;
    else text = (await (file === 'plan' ? files.readPlan() : files.readComments())) ?? '';
    if (signal.aborted) return;
    if (hasMergeConflictMarkers(text)) {
      this.ctx.emit({
        type: 'notice',
        notice: {
          kind: 'info',
          message: `${file === 'plan' ? 'plan.md' : 'comments.md'} still has conflict markers (<<<<<<< / >>>>>>>); resolve them all first`,
        },
      });
      const { choice: _choice, type: _type, ...conflict } = effect;
      await this.ctx.dispatch({ type: 'merge_conflicts', ...conflict });
      return;
    }
    await this.ctx.dispatch({ type: 'agent_done', role, action, text });
  }

  /** Conflict markers of a merge never reach an agent: a prompt that has them is refused (the person resolves them). */
  private async refuseConflicts(prompt: string): Promise<void> {
    if (!hasMergeConflictMarkers(prompt)) return;
    const { files } = this.ctx.deps;
    const inPlan = hasMergeConflictMarkers((await files.readPlan()) ?? '');
    const where = inPlan
      ? 'plan.md'
      : hasMergeConflictMarkers((await files.readComments()) ?? '')
        ? 'comments.md'
        : 'the prompt';
    throw new Error(
      `${where} has unresolved merge conflict markers (<<<<<<< … >>>>>>>); resolve them in the file, then go on`,
    );
  }

  /** Service errors (`infra`) are tried again after backoffMs, 2×, 4×, … */
  private async withRetries(play: Play, turn: AgentTurn): Promise<RoundOutcome> {
    const retry = this.ctx.deps.retry ?? { infraRetries: 0, backoffMs: 0 };
    let outcome = await this.attempt(play, turn);
    for (let k = 1; outcome.kind === 'failed' && outcome.failure === 'infra' && k <= retry.infraRetries; k++) {
      const delay = retry.backoffMs * 2 ** (k - 1);
      const wait = delay < 1000 ? `${delay} ms` : `${Math.round(delay / 1000)} s`;
      this.ctx.emit({
        type: 'notice',
        notice: {
          kind: 'info',
          message: `The ${play.role} hit a service error (${outcome.message}); retrying in ${wait} (${k}/${retry.infraRetries}).`,
        },
      });
      this.ctx.deps.files.debug(
        'engine',
        `infra retry ${k}/${retry.infraRetries} for ${play.role} after: ${outcome.message}`,
      );
      const waited = await sleep(delay, true, { signal: play.signal }).catch(() => false);
      if (!waited) return { kind: 'stopped' };
      outcome = await this.attempt(play, turn);
    }
    return outcome;
  }

  /** One try: in the role's session if it has one, else (or if that session is gone) a new one. */
  private async attempt(play: Play, turn: AgentTurn): Promise<RoundOutcome> {
    if (play.signal.aborted) return { kind: 'stopped' };
    const agent = this.ctx.deps.agents[play.role];
    const sessionId = this.ctx.state().sessions[play.role];
    const outcome = await this.consume(play, sessionId ? agent.resume(sessionId, turn) : agent.start(turn));
    if (outcome.kind !== 'failed' || outcome.failure !== 'session_lost' || !sessionId || play.signal.aborted)
      return outcome;
    this.ctx.emit({
      type: 'notice',
      notice: {
        kind: 'info',
        message: `The ${play.role}'s session could not be resumed; starting a new one from plan.md and comments.md.`,
      },
    });
    const recovery = await recoveryPrompt(this.ctx.deps.prompts, this.ctx.deps.files, this.ctx.state(), turn.prompt);
    await this.refuseConflicts(recovery);
    if (play.signal.aborted) return { kind: 'stopped' };
    return this.consume(play, agent.start({ ...turn, prompt: recovery }));
  }

  private async consume(play: Play, stream: AsyncIterable<AgentEvent>): Promise<RoundOutcome> {
    const { role, signal } = play;
    let question: string | null = null;
    let error: { failure: FailureKind; message: string; resetAt?: string } | null = null;
    let retryWaits = 0; // seconds the CLI announced it would wait before its own retries in this try
    // A usage report is held until the next event: one that comes with the answer (both CLIs report their totals in
    // the line that ends the turn) must not make a budget cap drop that answer; one followed by more work may stop it.
    let held: Extract<AgentEvent, { type: 'usage' }> | null = null;
    for await (const ev of stream) {
      if (signal.aborted) return { kind: 'stopped' };
      if (held) {
        await this.reportUsage(play, held, ev.type === 'done');
        held = null;
        if (signal.aborted) return { kind: 'stopped' };
      }
      this.ctx.deps.files.debug(role, JSON.stringify(ev));
      play.record?.(ev);
      this.ctx.emit({ type: 'agent_event', role, event: ev });
      await this.ctx.deps.outputDrained?.();
      switch (ev.type) {
        case 'session':
          // The CLI is up and waits on its model: the shell parser loads now, not on the first check (~0.15 s of
          // CPU at the step commit). A failure is left to the check that needs it, which says what to do.
          void this.ctx.deps.commands?.ready().catch(() => undefined);
          await this.ctx.dispatch({ type: 'session', role, sessionId: ev.sessionId });
          break;
        case 'usage':
          held = ev;
          break;
        case 'question':
          question = ev.text;
          break;
        case 'retry': {
          const maxWait = (this.ctx.deps.retry?.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_SECONDS * 1000) / 1000;
          const stop = retryStop(ev, retryWaits, maxWait, new Date(this.ctx.nowIso()));
          // Leaving the loop ends the CLI's event stream, which stops the CLI (its whole process group).
          if (stop) return { kind: 'failed', ...stop };
          retryWaits += ev.waitSeconds ?? 0;
          break;
        }
        case 'error':
          error = ev.resetAt
            ? { failure: ev.kind, message: `${ev.message} (the limit resets at ${ev.resetAt})`, resetAt: ev.resetAt }
            : { failure: ev.kind, message: ev.message };
          break;
        case 'done': {
          if (ev.sessionId) await this.ctx.dispatch({ type: 'session', role, sessionId: ev.sessionId });
          const asked = question ?? detectQuestion(play.kind, ev.text);
          return asked !== null ? { kind: 'question', text: asked } : { kind: 'done', text: ev.text };
        }
        default:
          break;
      }
    }
    if (held && !signal.aborted) await this.reportUsage(play, held, true);
    if (signal.aborted) return { kind: 'stopped' };
    if (error) return { kind: 'failed', ...error };
    return { kind: 'failed', failure: 'agent_error', message: `the ${role} ended its turn without an answer` };
  }

  /** Counts a usage report; `roundEnded`: it came with the turn's end, so reaching a cap stops the next round only. */
  private async reportUsage(
    play: Play,
    ev: Extract<AgentEvent, { type: 'usage' }>,
    roundEnded: boolean,
  ): Promise<void> {
    addUsage(play.usage, ev);
    await this.ctx.dispatch({
      type: 'usage',
      role: play.role,
      inputTokens: ev.inputTokens,
      outputTokens: ev.outputTokens,
      cachedTokens: ev.cachedTokens ?? 0,
      costUsd: ev.costUsd ?? 0,
      durationMs: ev.durationMs ?? 0,
      ...(roundEnded && { roundEnded }),
    });
  }

  /** plan.md or comments.md, when the person changed it since agent-collab last wrote it and this round writes it anew. */
  private async changedOutside(action: Action): Promise<'plan' | 'comments' | null> {
    const file =
      action.kind === 'write_plan' || action.kind === 'respond' ? 'plan' : action.kind === 'review' ? 'comments' : null;
    if (!file) return null;
    return (await this.ctx.deps.files.changedOutside(file)) ? file : null;
  }
}

function addUsage(u: RoundUsage, ev: Extract<AgentEvent, { type: 'usage' }>): void {
  u.inputTokens += ev.inputTokens;
  u.outputTokens += ev.outputTokens;
  u.cachedTokens += ev.cachedTokens ?? 0;
  u.costUsd += ev.costUsd ?? 0;
  u.calls += 1;
}

function failureCategory(kind: FailureKind): StepFailureCategory {
  if (kind === 'timeout' || kind === 'idle') return 'timeout';
  if (kind === 'infra' || kind === 'usage_limit') return 'infra';
  return 'agent_error';
}
