// `.agent-collab/reports/<name>.md`: one instruction's outcome. Frontmatter: its status (SUCCESS | PARTIAL | FAILED
// as the run report says, or WAITING / INTERRUPTED while it stays in the inbox), why, where its run worked and
// which run it was; body: the run report (engine/run-report.ts) or what the person has to do.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeAtomic } from '../persistence/atomic-write.js';
import { moveInto } from './inbox.js';
import { parseFrontmatter, renderFrontmatter } from '../persistence/frontmatter.js';
import type { InstructionStatus } from './queue-events.js';

export interface QueueReport {
  instruction: string;
  status: InstructionStatus;
  reason: string;
  type: string | null;
  priority: number | null;
  id: string | null;
  /** sha256 of the instruction file its run was started from (instruction.ts `digest`). */
  instruction_sha256: string | null;
  exit_code: number | null;
  phase: string | null;
  run_id: string | null;
  /** The run's own report (runs/<run id>/report.md), when the run wrote one. */
  run_report: string | null;
  /** Where the run worked: the repo, or its worktree and branch. */
  cwd: string | null;
  branch: string | null;
  /** Where the instruction file went; null: it stays in the inbox. */
  moved_to: string | null;
  started_at: string | null;
  ended_at: string;
}

export function reportPath(reportsDir: string, name: string): string {
  return path.join(reportsDir, `${name}.md`);
}

/** Outcomes a later run of the same name replaces: the run waited or was stopped, and goes on (or starts anew). */
const GOES_ON = new Set<unknown>(['WAITING', 'INTERRUPTED']);

/**
 * Writes `reports/<name>.md`. An earlier report there of a finished instruction (an earlier file of the same name)
 * is moved aside to `<name>-2.md`, `-3`, … first: it is the only record of that run's outcome.
 */
export async function writeQueueReport(reportsDir: string, report: QueueReport, body: string): Promise<string> {
  const file = reportPath(reportsDir, report.instruction);
  const before = await readQueueReport(reportsDir, report.instruction);
  if (before !== null && !GOES_ON.has(before.status)) await moveInto(file, reportsDir);
  const front = await renderFrontmatter({ ...report });
  await writeAtomic(file, `${front}\n${body.trim()}\n`);
  return file;
}

/** The body of the run's report without its own frontmatter (whose facts the queue report repeats). */
export async function runReportBody(file: string | null): Promise<string | null> {
  if (!file) return null;
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  return (await parseFrontmatter(text, file).catch(() => ({ content: text }))).content;
}

/** The status a run report's frontmatter gives; null when there is none to read. */
export async function runReportStatus(file: string): Promise<'SUCCESS' | 'PARTIAL' | 'FAILED' | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  const { data } = await parseFrontmatter(text, file).catch(() => ({ data: {} as Record<string, unknown> }));
  const s = data.status;
  return s === 'SUCCESS' || s === 'PARTIAL' || s === 'FAILED' ? s : null;
}

/** An earlier report of this instruction (a run that waited or was interrupted); null when there is none. */
export async function readQueueReport(reportsDir: string, name: string): Promise<Partial<QueueReport> | null> {
  const file = reportPath(reportsDir, name);
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  const parsed = await parseFrontmatter(text, file).catch(() => null);
  return parsed ? (parsed.data as Partial<QueueReport>) : null;
}
