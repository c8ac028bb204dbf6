// One instruction of the queue: its context read, its run made through the library API (api/run.ts, one engine,
// in-process), its outcome classified, its report written and its file moved. The queue (queue.ts) decides where
// and in which order; this never throws: whatever goes wrong becomes the instruction's FAILED report.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { runWith } from '../api/run.js';
import type { RunOptions, RunResult } from '../api/types.js';
import { EXIT, UserError } from '../core/errors.js';
import { renderContext } from '../core/layered-context.js';
import type { Agent, Role } from '../core/types.js';
import type { NeedsHumanEvent, RunEvent } from '../modes/run-events.js';
import { loadConfig } from '../persistence/config.js';
import { resolvePaths } from '../persistence/paths.js';
import { readContextLayers } from './context-files.js';
import { moveInto, type InboxDirs } from './inbox.js';
import type { Instruction } from './instruction.js';
import type { InstructionFinishedEvent, InstructionStatus, QueueEvent } from './queue-events.js';
import { runReportBody, writeQueueReport, type QueueReport } from './queue-report.js';

export interface RunSettings {
  repoRoot: string;
  dirs: InboxDirs;
  run: Pick<RunOptions, 'auto' | 'autoApprove' | 'maxIterations' | 'config' | 'signal'>;
  emit: (e: QueueEvent) => void;
  /** Tests: the agents of an instruction's run (else the configured CLIs). */
  agentsFor?: (instruction: string) => Partial<Record<Role, Agent>>;
  homeDir?: string;
}

export interface Where {
  cwd: string;
  branch: string | null;
  /** Go on with the run saved there (it waited or was interrupted), else archive what is there and start anew. */
  resume: boolean;
}

/** The run saved in `cwd`'s repo: its id and whether it is over. null: none, or unreadable. */
export async function savedRunIn(cwd: string, homeDir?: string): Promise<{ runId: string; over: boolean } | null> {
  try {
    const { config } = loadConfig({ repoRoot: cwd, homeDir });
    const text = await readFile(resolvePaths(cwd, config).state, 'utf8');
    const s = JSON.parse(text) as { runId?: unknown; phase?: unknown };
    if (typeof s.runId !== 'string') return null;
    return { runId: s.runId, over: s.phase === 'DONE' || s.phase === 'CANCELLED' };
  } catch {
    return null;
  }
}

const firstLine = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';

interface Outcome {
  status: InstructionStatus;
  reason: string;
  exitCode: number | null;
  result: RunResult | null;
  body: string;
}

function waitingBody(n: NeedsHumanEvent | null, where: Where, repoRoot: string): string {
  const inRepo = where.cwd === repoRoot ? '' : ` -C ${where.cwd}`;
  const lines = ['# Waiting for a person', '', n ? n.hint : 'The run waits for a person.', ''];
  if (n?.choices.length) {
    lines.push('Choices:', '');
    for (const c of n.choices) lines.push(`- \`agent-collab run${inRepo} --resume ${c.flag}\`: ${c.description}`);
    lines.push('');
  }
  lines.push(
    'The instruction stays in the inbox. Decide with one of the commands above (add --auto to let it run on), or run',
    '`agent-collab queue` again: the queue goes on with this run first, and takes the outcome of a run you finished.',
  );
  return lines.join('\n');
}

function classify(result: RunResult, report: string | null, needs: NeedsHumanEvent | null, error: string | null) {
  if (result.exitCode === EXIT.interrupted)
    return { status: 'INTERRUPTED' as const, reason: 'stopped by Ctrl+C; the run was saved' };
  if (result.exitCode === EXIT.needsHuman)
    return { status: 'WAITING' as const, reason: needs ? `waits for a person: ${needs.hint}` : 'waits for a person' };
  const status = (report as InstructionStatus | null) ?? (result.phase === 'DONE' ? 'SUCCESS' : 'FAILED');
  const done = result.steps.filter((s) => s.status === 'done').length;
  const reason =
    result.exitCode === EXIT.done
      ? `the run ended ${result.phase} with ${done} of ${result.steps.length} step(s) done`
      : `the run failed (${error ?? `exit code ${result.exitCode}`}) with ${done} of ${result.steps.length} step(s) done`;
  return { status, reason };
}

async function runOnce(i: Instruction, where: Where, s: RunSettings): Promise<Outcome> {
  const layers = await readContextLayers(s.repoRoot, i.contextDirs);
  if (!layers.ok) return { status: 'FAILED', reason: layers.reason, exitCode: null, result: null, body: '' };
  let needs: NeedsHumanEvent | null = null;
  let reportStatus: string | null = null;
  let error: string | null = null;
  const onEvent = (e: RunEvent): void => {
    if (e.event === 'needs_human') needs = e;
    if (e.event === 'report') reportStatus = e.status;
    if (e.event === 'error') error = e.message;
    s.emit({ ...e, instruction: i.name });
  };
  let result: RunResult;
  try {
    result = await runWith(
      { ...s.run, cwd: where.cwd, goal: i.goal, onEvent, ...(where.resume ? { resume: true } : { fresh: true }) },
      { context: renderContext(layers.layers), ...(s.agentsFor ? { agents: s.agentsFor(i.name) } : {}) },
    );
  } catch (err) {
    // No run was made (a held lock, a repo mid-rebase, a bad config): the same for every instruction, so the queue
    // stops on it and this one stays in the inbox, rather than failing them all one after another.
    const why = err instanceof UserError ? err.message : `internal error: ${firstLine(err)}`;
    throw new UserError(
      `${i.name}: ${why} (the queue stopped; the instruction stays in the inbox)`,
      err instanceof UserError ? err.exitCode : EXIT.badInput,
    );
  }
  // An agent's failure (exit 4) is a wait for the person too: its message says what failed.
  const failed = needs as NeedsHumanEvent | null;
  if (failed && 'message' in failed && typeof failed.message === 'string') error ??= failed.message;
  const { status, reason } = classify(result, reportStatus, needs, error);
  const body =
    status === 'WAITING'
      ? waitingBody(needs, where, s.repoRoot)
      : ((await runReportBody(result.report)) ?? `# ${status}\n\n${reason}`);
  return { status, reason, exitCode: result.exitCode, result, body };
}

/** Where a finished instruction's file goes: done/ on SUCCESS, failed/ else; it stays while it waits. */
function destination(status: InstructionStatus, dirs: InboxDirs): string | null {
  if (status === 'SUCCESS') return dirs.done;
  if (status === 'FAILED' || status === 'PARTIAL') return dirs.failed;
  return null;
}

/** The file holds other text than its run started from: the person edited it meanwhile (false when it is gone). */
async function editedSince(file: string, digest: string | undefined): Promise<boolean> {
  if (digest === undefined) return false;
  const now = await readFile(file).catch(() => null);
  return now !== null && createHash('sha256').update(now).digest('hex') !== digest;
}

const EDITED =
  '; the instruction was edited while its run went on: it stays in the inbox, and the next `agent-collab queue` runs its new text';

/**
 * Writes the report, moves the file, and says so (the `instruction_finished` event). A file edited during its run
 * is not filed away: its new text was never run.
 */
export async function finish(
  i: Pick<Instruction, 'name' | 'file'> & Partial<Instruction>,
  fields: Omit<
    QueueReport,
    'instruction' | 'type' | 'priority' | 'id' | 'instruction_sha256' | 'moved_to' | 'ended_at'
  >,
  body: string,
  s: RunSettings,
): Promise<InstructionFinishedEvent> {
  let to = destination(fields.status, s.dirs);
  let reason = fields.reason;
  if (to !== null && (await editedSince(i.file, i.digest))) {
    to = null;
    reason += EDITED;
  }
  const movedTo = to ? await moveInto(i.file, to) : null;
  const report: QueueReport = {
    instruction: i.name,
    ...fields,
    reason,
    type: i.type ?? null,
    priority: i.priority ?? null,
    id: i.id ?? null,
    instruction_sha256: i.digest ?? null,
    moved_to: movedTo ? path.relative(s.repoRoot, movedTo) : null,
    ended_at: new Date().toISOString(),
  };
  const file = await writeQueueReport(s.dirs.reports, report, body || `# ${fields.status}\n\n${reason}`);
  const event: InstructionFinishedEvent = {
    event: 'instruction_finished',
    instruction: i.name,
    status: fields.status,
    reason,
    report: file,
    moved_to: movedTo,
    exit_code: fields.exit_code ?? EXIT.badInput,
  };
  s.emit(event);
  return event;
}

export async function runInstruction(i: Instruction, where: Where, s: RunSettings): Promise<InstructionFinishedEvent> {
  const startedAt = new Date().toISOString();
  s.emit({
    event: 'instruction_started',
    instruction: i.name,
    priority: i.priority,
    cwd: where.cwd,
    branch: where.branch,
    resumed: where.resume,
  });
  const o = await runOnce(i, where, s);
  const saved = o.result ? await savedRunIn(where.cwd, s.homeDir) : null;
  return finish(
    i,
    {
      status: o.status,
      reason: o.reason,
      exit_code: o.exitCode,
      phase: o.result?.phase ?? null,
      run_id: saved?.runId ?? null,
      run_report: o.result?.report ?? null,
      cwd: where.cwd,
      branch: where.branch,
      started_at: startedAt,
    },
    o.body,
    s,
  );
}
