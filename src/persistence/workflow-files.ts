// The engine's WorkflowFiles port over the `.agent-collab/` files.
import { readFile } from 'node:fs/promises';
import type { WorkflowFiles } from '../engine/ports.js';
import { markStepDone, parseSteps } from '../engine/plan-steps.js';
import type { StepInfo, Verdict, WorkflowState } from '../engine/types.js';
import type { DebugLog } from './debug-log.js';
import { archiveRun } from './history.js';
import { appendLog } from './log-file.js';
import type { Paths } from './paths.js';
import { readComments, readPlan, setPlanStatus, writeComments, writePlan, writePlanBody } from './plan-files.js';
import { writeState } from './state-store.js';

export class DiskWorkflowFiles implements WorkflowFiles {
  constructor(
    readonly paths: Paths,
    readonly debugLog: DebugLog,
  ) {}

  saveState(state: WorkflowState): Promise<void> {
    return writeState(this.paths, state);
  }

  async readPlan(): Promise<string | null> {
    return (await readPlan(this.paths.plan))?.body ?? null;
  }

  async readComments(): Promise<string | null> {
    return (await readComments(this.paths.comments))?.body ?? null;
  }

  writePlan(body: string, iteration: number): Promise<void> {
    return writePlan(this.paths.plan, { body, status: 'reviewing', iteration });
  }

  writeComments(body: string, verdict: Verdict, iteration: number): Promise<void> {
    return writeComments(this.paths.comments, { body, status: verdict, iteration });
  }

  async setPlanStatus(status: 'draft' | 'reviewing' | 'approved'): Promise<void> {
    if ((await readFile(this.paths.plan, 'utf8').catch(() => null)) === null) return;
    await setPlanStatus(this.paths.plan, status);
  }

  async readSteps(): Promise<StepInfo[]> {
    return parseSteps((await this.readPlan()) ?? '');
  }

  async markStepDone(step: number, commit: string | null): Promise<void> {
    const body = await this.readPlan();
    if (body === null) return;
    await writePlanBody(this.paths.plan, markStepDone(body, step, commit));
  }

  appendLog(title: string, lines: string[]): Promise<void> {
    return appendLog(this.paths.log, { title, lines });
  }

  archive(state: WorkflowState): Promise<string> {
    return archiveRun(this.paths, { goal: state.goal });
  }

  debug(source: string, line: string): void {
    this.debugLog.write(source, line);
  }
}
