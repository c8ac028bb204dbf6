// The inbox queue (issue 21, item 3; seed 002): runs the instruction files of `.agent-collab/inbox/` in priority,
// then name order, each a run of the library API. Sequentially (parallel 1) they run one after another in the repo
// itself, and the queue stops at one that needs a person (the repo holds its run: the next one would have to archive
// it). With parallel N > 1 each runs in its own git worktree, N at a time, and one that waits does not hold up the
// others. Ctrl+C (the signal) stops the run under way, saved as a run's Ctrl+C, and starts no other.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { EXIT, UserError } from '../core/errors.js';
import { findRepoRoot } from '../adapters/git/git.js';
import { inboxDirs, inboxFiles, lockInbox, type InboxDirs } from './inbox.js';
import { byPriorityThenName, parseInstruction, type Instruction } from './instruction.js';
import type { InstructionFinishedEvent, InstructionStatus, QueueEvent } from './queue-events.js';
import { readQueueReport, runReportStatus } from './queue-report.js';
import { finish, runInstruction, savedRunIn, type RunSettings, type Where } from './run-instruction.js';

export interface QueueOptions extends Omit<RunSettings, 'repoRoot' | 'dirs' | 'emit'> {
  cwd: string;
  /** How many instructions run at once, each in its own worktree when more than 1. */
  parallel: number;
  onEvent?: (e: QueueEvent) => void;
  /** Aborting it stops the run under way (saved like Ctrl+C) and the queue. */
  signal?: AbortSignal;
  /** Makes the worktree of an instruction's run (N > 1): adapters/git/run-worktree.ts. */
  createWorktree?: (opts: {
    repoRoot: string;
    name?: string;
    goal?: string;
  }) => Promise<{ path: string; branch: string }>;
}

export interface QueueResult {
  exitCode: number;
  finished: InstructionFinishedEvent[];
  notStarted: string[];
}

const STAYS: readonly InstructionStatus[] = ['WAITING', 'INTERRUPTED'];

/** 130 when stopped; 3 when one waits for a person; 4 when one did not succeed; 0 when all did (or none was there). */
function exitCodeOf(finished: readonly InstructionFinishedEvent[], interrupted: boolean): number {
  if (interrupted || finished.some((f) => f.status === 'INTERRUPTED')) return EXIT.interrupted;
  if (finished.some((f) => f.status === 'WAITING')) return EXIT.needsHuman;
  if (finished.some((f) => f.status !== 'SUCCESS')) return EXIT.agentFailure;
  return EXIT.done;
}

/**
 * An instruction that waited (or was stopped) before: where its run is, if it is still there to go on with and the
 * file is the one it started from. A run the person finished meanwhile (`agent-collab run --resume …`) gives its outcome from its report instead.
 */
async function earlierRun(
  i: Instruction,
  s: RunSettings,
): Promise<{ kind: 'resume'; where: Where } | { kind: 'finished'; status: InstructionStatus; report: string } | null> {
  const before = await readQueueReport(s.dirs.reports, i.name);
  if (!before || !STAYS.includes(before.status as InstructionStatus) || typeof before.run_id !== 'string') return null;
  // Edited since its run waited: the person means the new text, which that run never saw; a new run takes it.
  if (typeof before.instruction_sha256 === 'string' && before.instruction_sha256 !== i.digest) return null;
  const cwd = typeof before.cwd === 'string' ? before.cwd : s.repoRoot;
  if (!(await stat(cwd).catch(() => null))) return null;
  const saved = await savedRunIn(cwd, s.homeDir);
  if (saved?.runId === before.run_id && !saved.over)
    return {
      kind: 'resume',
      where: { cwd, branch: typeof before.branch === 'string' ? before.branch : null, resume: true },
    };
  const report =
    typeof before.run_report === 'string'
      ? before.run_report
      : path.join(cwd, '.agent-collab', 'runs', before.run_id, 'report.md');
  const status = await runReportStatus(report);
  return status ? { kind: 'finished', status, report } : null;
}

export async function runQueue(opts: QueueOptions): Promise<QueueResult> {
  if (!Number.isInteger(opts.parallel) || opts.parallel < 1 || opts.parallel > 16)
    throw new UserError(`--parallel must be a whole number from 1 to 16 (got ${String(opts.parallel)})`);
  if (opts.parallel > 1 && !opts.createWorktree)
    throw new UserError('--parallel needs worktrees, which this build of agent-collab does not have; run without it');
  const repoRoot = await findRepoRoot(opts.cwd);
  const dirs = inboxDirs(repoRoot);
  const release = await lockInbox(dirs);
  try {
    return await queueLocked(opts, repoRoot, dirs);
  } finally {
    await release();
  }
}

async function queueLocked(opts: QueueOptions, repoRoot: string, dirs: InboxDirs): Promise<QueueResult> {
  const finished: InstructionFinishedEvent[] = [];
  const emit = (e: QueueEvent): void => opts.onEvent?.(e);
  const s: RunSettings = { ...opts, run: { ...opts.run, signal: opts.signal }, repoRoot, dirs, emit };

  const parsed = await Promise.all((await inboxFiles(dirs)).map((f) => parseInstruction(f)));
  const good = parsed.flatMap((p) => (p.ok ? [p.instruction] : [])).sort(byPriorityThenName);
  // Sequentially the repo holds one run: a run waiting there for an instruction of the queue goes first.
  const earlier = new Map(await Promise.all(good.map(async (i) => [i.name, await earlierRun(i, s)] as const)));
  const resumedHere = good.find((i) => {
    const e = earlier.get(i.name);
    return e?.kind === 'resume' && e.where.cwd === repoRoot;
  });
  if (opts.parallel === 1) await refuseForeignRun(repoRoot, resumedHere, s);
  const order = resumedHere ? [resumedHere, ...good.filter((i) => i !== resumedHere)] : good;

  emit({ event: 'queue_started', instructions: order.map((i) => i.name), parallel: opts.parallel });
  for (const bad of parsed)
    if (!bad.ok)
      finished.push(
        await finish(
          { name: bad.name, file: path.join(dirs.inbox, `${bad.name}.md`) },
          { ...noRun, status: 'FAILED', reason: `${bad.name}.md ${bad.reason}` },
          '',
          s,
        ),
      );

  const pending = [...order];
  let stop = false;
  let thrown: unknown = null;
  const next = async (): Promise<void> => {
    while (pending.length && !stop && !opts.signal?.aborted) {
      const i = pending.shift()!;
      try {
        finished.push(await one(i));
      } catch (err) {
        // A run that could not be made, or a worktree that could not: the queue stops, the others finish.
        thrown ??= err;
        stop = true;
        pending.unshift(i);
      }
      const done = finished.at(-1);
      // Sequentially, a run left waiting or stopped holds the repo; in worktrees only Ctrl+C stops the others.
      if (
        done?.instruction === i.name &&
        (done.status === 'INTERRUPTED' || (opts.parallel === 1 && done.status === 'WAITING'))
      )
        stop = true;
    }
  };
  const one = async (i: Instruction): Promise<InstructionFinishedEvent> => {
    const e = earlier.get(i.name);
    if (e?.kind === 'finished')
      return finish(
        i,
        { ...noRun, status: e.status, reason: 'its run was finished outside the queue', run_report: e.report },
        '',
        s,
      );
    const where = e?.kind === 'resume' ? e.where : await placeFor(i, opts, repoRoot);
    return runInstruction(i, where, s);
  };
  if (opts.parallel === 1) await next();
  else await Promise.all(Array.from({ length: Math.min(opts.parallel, order.length) }, next));
  const notStarted = pending.map((i) => i.name);
  const exitCode = exitCodeOf(finished, opts.signal?.aborted ?? false);
  const counts = { SUCCESS: 0, PARTIAL: 0, FAILED: 0, WAITING: 0, INTERRUPTED: 0 } as Record<InstructionStatus, number>;
  for (const f of finished) counts[f.status]++;
  if (thrown !== null) {
    const err =
      thrown instanceof UserError ? thrown : new UserError(`internal error: ${String(thrown)}`, EXIT.badInput);
    emit({ event: 'queue_done', counts, not_started: notStarted, exit_code: err.exitCode });
    throw err;
  }
  emit({ event: 'queue_done', counts, not_started: notStarted, exit_code: exitCode });
  return { exitCode, finished, notStarted };
}

const noRun = {
  exit_code: null,
  phase: null,
  run_id: null,
  run_report: null,
  cwd: null,
  branch: null,
  started_at: null,
} as const;

/** The repo itself (sequential), or a new worktree on its own branch. */
async function placeFor(i: Instruction, opts: QueueOptions, repoRoot: string): Promise<Where> {
  if (opts.parallel === 1 || !opts.createWorktree) return { cwd: repoRoot, branch: null, resume: false };
  // The branch's slug from the instruction's name (any file name works: the slug keeps what a branch may have).
  const wt = await opts.createWorktree({ repoRoot, goal: i.name });
  return { cwd: wt.path, branch: wt.branch, resume: false };
}

/**
 * Sequentially each run archives what the repo holds. An unfinished run the queue did not start (the person's own)
 * is not archived under them: the queue refuses to start, saying how to go on.
 */
async function refuseForeignRun(repoRoot: string, resumed: Instruction | undefined, s: RunSettings): Promise<void> {
  const saved = await savedRunIn(repoRoot, s.homeDir);
  if (!saved || saved.over || resumed) return;
  const names = (await readdir(s.dirs.reports).catch(() => [] as string[])).filter((n) => n.endsWith('.md'));
  for (const n of names) {
    const r = await readQueueReport(s.dirs.reports, n.slice(0, -3));
    if (r?.run_id === saved.runId) return; // a queue run that failed: the next one archives it
  }
  throw new UserError(
    'the repo has an unfinished run the queue did not start: finish it with `agent-collab run --resume`, or archive it with `agent-collab run --fresh --goal "…"`, then run the queue',
    EXIT.needsHuman,
  );
}
