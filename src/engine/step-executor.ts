// agent-collab's own work around a step's agent rounds: the snapshot the step is measured against, the tests,
// the commit of only the step's changes (the workspace scans them for secrets first) and the rollback.
// Each ends in an event; a result whose round was stopped meanwhile (its signal aborted) is dropped, except a
// commit or rollback that happened: git has done it, so the records say so.
import path from 'node:path';
import { describeLarge } from '../core/commit-holds.js';
import { stepSubject } from '../core/plan-steps.js';
import type { EngineEvent } from '../core/events.js';
import type { RepoBaselineOf } from '../core/ports.js';
import { describeRepoChanges } from '../core/repo-invariants.js';
import type { Role } from '../core/types.js';
import { errorMessage, type EngineContext } from './context.js';
import type { EngineCommandGate } from './command-gate.js';
import type { RunRecords } from './run-records.js';

export class StepExecutor {
  /** What the step's last write turn had to leave alone, until it is checked before the step's commit. */
  private guarded: { step: number; baseline: RepoBaselineOf } | null = null;

  constructor(
    private readonly ctx: EngineContext,
    private readonly records: RunRecords,
    private readonly gate: EngineCommandGate,
  ) {}

  /**
   * Before a step's first attempt: the working tree is snapshotted so the step's own changes can be told apart.
   * A retry keeps the base it has. False when the round cannot go on (stopped, or the step was not started).
   */
  async begin(step: number, signal: AbortSignal): Promise<boolean> {
    if (this.ctx.state().stepRun?.step === step) return true;
    const baseTree = await this.ctx.deps.workspace.snapshot(signal);
    if (signal.aborted) return false;
    this.records.timeline(`step ${step} started`);
    await this.ctx.dispatch({ type: 'step_started', step, baseTree, at: this.ctx.nowIso() });
    return !signal.aborted && this.ctx.state().stepRun?.step === step;
  }

  /** Right before a write turn: what it must leave alone (HEAD, branch, refs, worktrees, stash, agent-collab's files). */
  async guardTurn(step: number, signal: AbortSignal): Promise<void> {
    const guard = this.ctx.deps.repoGuard;
    this.guarded = null;
    if (!guard) return;
    const baseline = await guard.take(signal);
    if (!signal.aborted) this.guarded = { step, baseline };
  }

  /**
   * After the write turn, after the tests, and again right before the commit: anything changed
   * is put back, and the step stops uncommitted for the person. True when that happened (the caller goes no further).
   * The check before the commit is the last use of the baseline: a commit the person retries later has no agent
   * work since this check, and the person's own changes while the run waited for them are theirs to make.
   */
  async checkGuard(step: number, attempt: number, signal: AbortSignal, last: boolean): Promise<boolean> {
    const guard = this.ctx.deps.repoGuard;
    const g = this.guarded;
    if (!guard || !g || g.step !== step) return false;
    const { after, changes } = await guard.compare(g.baseline, signal);
    if (signal.aborted) return false;
    if (last) this.guarded = null;
    if (changes.length === 0) return false;
    this.guarded = null;
    const undone = await guard.restore(g.baseline, after);
    this.records.timeline(`step ${step} attempt ${attempt}: the agent changed what it must not: ${changes.join('; ')}`);
    await this.ctx.dispatch({ type: 'forbidden_change', step, attempt, changes, undone });
    return true;
  }

  /**
   * A write turn stopped before its end (the person's Stop, too many denied commands, a shutdown) is not asked about
   * — the run has moved on — but what it did to HEAD, the refs, the worktrees and the stash is undone all the same,
   * and log.md says so. agent-collab's own files are not compared here: stopping writes plan.md's status itself.
   */
  async undoAfterStop(role: Role, step: number, attempt: number): Promise<void> {
    const guard = this.ctx.deps.repoGuard;
    const g = this.guarded;
    if (!guard || !g || g.step !== step) return;
    this.guarded = null;
    await this.ctx.deps.agents[role].stop(); // nothing of the agent may run on while its changes are undone
    // agent-collab's files are left out; git's config and hooks are not (they would run code in agent-collab's git).
    const gitOnly = (b: RepoBaselineOf): RepoBaselineOf => ({ ...b, snapshot: { ...b.snapshot, files: {} } });
    const before = gitOnly(g.baseline);
    const after = gitOnly((await guard.compare(g.baseline)).after);
    const changes = describeRepoChanges(before.snapshot, after.snapshot);
    if (changes.length === 0) return;
    const undone = await guard.restore(before, after);
    this.records.timeline(
      `step ${step} attempt ${attempt} (stopped): the agent changed what it must not: ${changes.join('; ')}`,
    );
    await this.records.logDone(
      `Step ${step} attempt ${attempt} was stopped; what the agent changed that it must not is undone`,
      [...changes, ...undone.map((u) => `agent-collab: ${u}`)],
    );
    this.ctx.emit({
      type: 'notice',
      notice: {
        kind: 'info',
        message: `The stopped step ${step} had changed what it must not (${changes.join('; ')}); undone.`,
      },
    });
  }

  async runTests(step: number, attempt: number, signal: AbortSignal): Promise<void> {
    const { tests, repoRoot } = this.ctx.deps;
    const command = this.ctx.state().testCommand || (tests ? ((await tests.resolve())?.command ?? null) : null);
    if (signal.aborted) return;
    if (!command || !tests) {
      await this.ctx.dispatch({ type: 'no_test_command', step });
      return;
    }
    // agent-collab's own commands go through the same policy as the agents'.
    const verdict = await this.gate.check({ role: 'agent-collab', command, cwd: repoRoot });
    if (signal.aborted) return;
    const base = this.ctx.state().stepRun?.baseTree;
    if (!verdict.allow) {
      await this.records.attempt(step, attempt, base, {
        result: 'fail',
        category: 'policy_block',
        command,
        reason: verdict.reason,
      });
      await this.ctx.dispatch({
        type: 'attempt_failed',
        step,
        attempt,
        category: 'policy_block',
        message: `the test command \`${command}\` was denied: ${verdict.reason}`,
      });
      return;
    }
    this.records.timeline(`step ${step} attempt ${attempt}: running \`${command}\``);
    const dir = await this.records.attemptDir(step, attempt);
    if (signal.aborted) return;
    const r = await tests.run(command, { fullOutputFile: dir ? path.join(dir, 'test-output.txt') : null, signal });
    if (signal.aborted) return;
    // The tests ran code the agent wrote: checked here too, or a failing run's changes would be taken for the
    // starting point of the retry.
    if (await this.checkGuard(step, attempt, signal, false)) return;
    const category = r.passed ? null : r.timedOut ? 'timeout' : 'test_failure';
    await this.records.attempt(step, attempt, base, {
      result: r.passed ? 'pass' : 'fail',
      category,
      command,
      exitCode: r.exitCode,
      durationMs: r.durationMs,
    });
    this.records.timeline(
      `step ${step} attempt ${attempt}: tests ${r.passed ? 'passed' : r.timedOut ? 'timed out' : 'failed'} (${(r.durationMs / 1000).toFixed(1)} s)`,
    );
    await this.ctx.dispatch({
      type: 'tests_done',
      step,
      attempt,
      command,
      passed: r.passed,
      output: r.output,
      durationMs: r.durationMs,
      timedOut: r.timedOut,
      exitCode: r.exitCode,
    });
  }

  async commit(step: number, summary: string, allowSecrets: boolean, signal: AbortSignal): Promise<void> {
    const { workspace, repoRoot } = this.ctx.deps;
    const s = this.ctx.state();
    const run = s.stepRun?.step === step ? s.stepRun : null;
    if (await this.checkGuard(step, run?.attempt ?? 1, signal, true)) return;
    if (signal.aborted) return;
    const allowed = await this.gate.check({
      role: 'agent-collab',
      command: `git commit -m ${shellQuote(stepSubject(step, summary))}`,
      cwd: repoRoot,
      own: true,
    });
    if (signal.aborted) return;
    if (!allowed.allow) {
      await this.ctx.dispatch({
        type: 'commit_failed',
        step,
        message: `agent-collab's own \`git commit\` of step ${step} was denied: ${allowed.reason}`,
      });
      return;
    }
    // The workspace first looks for this step's commit (run, step, base, start): a crash may have come between
    // `git commit` and saving the state that records it.
    const r = await workspace.commitStep({
      runId: s.runId,
      step,
      summary,
      baseTree: run?.baseTree ?? null,
      startedAt: run?.startedAt,
      allowSecrets,
      commitBoth: run?.allowed?.includes('overlap') === true,
      allowLarge: run?.allowed?.includes('large') === true,
      signal,
    });
    if (signal.aborted && r.kind !== 'committed') return;
    if (run?.testResult === 'none') {
      if (r.kind === 'committed' && r.patch !== undefined) this.records.write(step, run.attempt, 'patch.diff', r.patch);
      this.records.verdict(step, run.attempt, {
        result: 'pass',
        category: null,
        command: null,
        note: 'no test command',
      });
    }
    switch (r.kind) {
      case 'committed':
      case 'nothing': {
        const commit = r.kind === 'committed' ? r.hash : null;
        const files = r.kind === 'nothing' ? [] : r.files;
        this.records.timeline(
          commit ? `step ${step} committed as ${commit.slice(0, 7)}` : `step ${step}: no changes, nothing committed`,
        );
        const recorded = await this.settle(signal, 'commit_step', step, {
          type: 'step_committed',
          step,
          commit,
          files,
          at: this.ctx.nowIso(),
        });
        if (!recorded && commit)
          await this.records.logDone(`Step ${step} committed as ${commit.slice(0, 7)} while the run was stopped`, [
            `files: ${files?.join(', ') || '(none)'}`,
          ]);
        return;
      }
      case 'secrets':
        this.records.timeline(`step ${step}: commit held, possible secret (${r.findings.length})`);
        await this.ctx.dispatch({ type: 'secrets_found', step, findings: r.findings });
        return;
      case 'overlap':
        this.records.timeline(
          `step ${step}: commit held, the agent's hunks meet the person's in ${r.files.join(', ')}`,
        );
        await this.ctx.dispatch({ type: 'hunks_overlap', step, files: r.files });
        return;
      case 'large':
        this.records.timeline(`step ${step}: commit held, over the size limits (${describeLarge(r.large).join('; ')})`);
        await this.ctx.dispatch({ type: 'large_change', step, large: r.large });
        return;
      case 'forbidden':
        this.records.timeline(`step ${step}: the commit's hooks changed what they must not: ${r.changes.join('; ')}`);
        await this.ctx.dispatch({
          type: 'forbidden_change',
          step,
          attempt: run?.attempt ?? 1,
          changes: r.changes,
          undone: r.undone,
        });
        return;
      case 'failed':
        this.records.timeline(`step ${step}: commit failed: ${r.message}`);
        await this.ctx.dispatch({ type: 'commit_failed', step, message: r.message });
        return;
    }
  }

  async rollback(step: number, signal: AbortSignal): Promise<void> {
    const { workspace, repoRoot } = this.ctx.deps;
    const run = this.ctx.state().stepRun;
    const base = run?.step === step ? run.baseTree : null;
    if (!base) throw new Error(`step ${step} has no snapshot to roll back to; restore the files with git yourself`);
    const allowed = await this.gate.check({
      role: 'agent-collab',
      command: `git restore --source=${base} --worktree -- .`,
      cwd: repoRoot,
      own: true,
    });
    if (signal.aborted) return;
    if (!allowed.allow)
      throw new Error(
        `agent-collab's own \`git restore\` for the rollback of step ${step} was denied: ${allowed.reason}`,
      );
    const changes = await workspace.changedSince(base);
    if (signal.aborted) return;
    // Once the files are restored the step's work lives only in this patch: no rollback unless it is on disk. An
    // empty patch (a resumed rollback finds the files restored already) must not replace the one saved before.
    if (changes.patch) {
      await this.records
        .keep(step, run?.attempt ?? 1, 'rolled-back.patch.diff', changes.patch)
        .catch((err: unknown) => {
          throw new Error(
            `could not save step ${step}'s changes before rolling it back, so nothing was rolled back: ${errorMessage(err)}`,
          );
        });
      if (signal.aborted) return;
    }
    const files = await workspace.rollback(base);
    this.records.timeline(`step ${step} rolled back (${files.length} file(s))`);
    const recorded = await this.settle(signal, 'rollback_step', step, { type: 'step_rolled_back', step, files });
    if (!recorded)
      await this.records.logDone(
        `Step ${step} rolled back while the run was stopped`,
        files.length ? files.map((f) => `restored ${f}`) : ['no files had changed'],
      );
  }

  /**
   * Hands a done commit or rollback to the state. Once the round was stopped, only while the state still waits for
   * it (a shutdown keeps it; a stop or cancel has moved on). False when the state did not take it.
   */
  private async settle(
    signal: AbortSignal,
    kind: 'commit_step' | 'rollback_step',
    step: number,
    event: EngineEvent,
  ): Promise<boolean> {
    const inflight = this.ctx.state().inflight;
    if (signal.aborted && (inflight?.kind !== kind || inflight.step !== step)) return false;
    return this.ctx.dispatch(event);
  }
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, "'\\''")}'`;
}
