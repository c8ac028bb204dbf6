// Gathers the facts of a run that ended (its state, log.md, plan.md, the run's commits in git) and writes its report
// to runs/<run id>/report.md: atomically, redacted like every other sink. The rendering is core/run-report.ts.
import { readFile, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { filesChangedBy, runCommits } from '../adapters/git/run-commits.js';
import type { Redactor } from '../core/redact.js';
import { logFacts, parseLog, planTitle } from '../core/run-report-log.js';
import {
  renderRunReport,
  reportSummary,
  type OpenEntry,
  type RoleSetup,
  type RunEnding,
  type RunReportInput,
  type RunReportWritten,
} from '../core/run-report.js';
import type { Role, WorkflowState } from '../core/types.js';
import { writeAtomic } from '../persistence/atomic-write.js';
import { errorMessage } from './context.js';

/** How a run ended: the engine's `report` effect, or agent-collab closed on a run under way. */
export interface RunEnd {
  ending: RunEnding;
  reason: string;
  /** The step under way when it ended. */
  step: number | null;
}

export interface RunReports {
  write(state: WorkflowState, end: RunEnd, endedAt: string): Promise<RunReportWritten>;
  /** Where the report is once the run's files were archived to `archivedTo` (history/<dir>/). */
  archivedPath(state: WorkflowState, archivedTo: string): string;
}

export interface RunReportSources {
  repoRoot: string;
  /** `.agent-collab/` (or `[paths] workdir`): runs/ and log.md are in it. */
  workdir: string;
  logFile: string;
  readPlan(): Promise<string | null>;
  /** Pathspec of everything but agent-collab's work dir. */
  pathspec: readonly string[];
  roles: Record<Role, RoleSetup>;
  redactor: Redactor;
  /** The review ledger's open entries (issue 19, item 2); undefined: no ledger. */
  openEntries?: (state: WorkflowState) => readonly OpenEntry[] | undefined;
}

export const REPORT_FILE = 'report.md';

/**
 * A run stopped back to goal refinement goes on, in the same run, with a new goal: the stopped plan's report is kept
 * as report-<n>.md rather than written over by the next one. (An interrupted run's report is only where it stood.)
 */
async function keepStoppedReport(file: string): Promise<void> {
  const before = await readFile(file, 'utf8').catch(() => null);
  if (before === null || !before.includes('\nending: "stopped"\n')) return;
  for (let n = 1; ; n++) {
    const kept = file.replace(/\.md$/, `-${n}.md`);
    if (!(await stat(kept).catch(() => null))) return rename(file, kept);
  }
}

export class DiskRunReports implements RunReports {
  constructor(private readonly src: RunReportSources) {}

  private relative(state: WorkflowState): string {
    return path.join('runs', state.runId, REPORT_FILE);
  }

  async write(state: WorkflowState, end: RunEnd, endedAt: string): Promise<RunReportWritten> {
    const input = await this.gather(state, end, endedAt);
    const file = path.join(this.src.workdir, this.relative(state));
    await keepStoppedReport(file);
    await writeAtomic(file, this.src.redactor.text(renderRunReport(input)));
    return { ...reportSummary(input), path: file };
  }

  archivedPath(state: WorkflowState, archivedTo: string): string {
    return path.join(archivedTo, this.relative(state));
  }

  private async gather(state: WorkflowState, end: RunEnd, endedAt: string): Promise<RunReportInput> {
    const logText = await readFile(this.src.logFile, 'utf8').catch(() => '');
    const plan = await this.src.readPlan().catch(() => null);
    // The report is written whatever git says: a fact it cannot read is named as unknown.
    const commits = await runCommits(this.src.repoRoot, state.runId).catch(() => []);
    const files = await filesChangedBy(this.src.repoRoot, commits, this.src.pathspec).catch((err: unknown) => ({
      error: errorMessage(err),
    }));
    const openEntries = this.src.openEntries?.(state);
    return {
      state,
      ending: end.ending,
      reason: end.reason,
      stoppedAt: end.step,
      endedAt,
      planTitle: planTitle(plan),
      log: logFacts(parseLog(logText)),
      commits,
      files,
      roles: this.src.roles,
      ...(openEntries !== undefined ? { openEntries } : {}),
    };
  }
}
