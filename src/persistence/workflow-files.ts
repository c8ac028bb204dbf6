// The engine's WorkflowFiles port over the `.agent-collab/` files.
import { access } from 'node:fs/promises';
import type { WorkflowFiles } from '../core/ports.js';
import { appendSteps, markStepDone, markStepSkipped, parseSteps } from '../core/plan-steps.js';
import type { ExternalChangeChoice, StepInfo, Verdict, WorkflowState } from '../core/types.js';
import { changedSinceWritten, reconcile, WrittenCopies, type WatchedFile } from './external-edits.js';
import path from 'node:path';
import type { DebugLog } from './debug-log.js';
import { patternRedactor, type Redactor } from '../core/redact.js';
import { archiveRun } from './history.js';
import { appendLog } from './log-file.js';
import { inOrder, writeAtomic } from './atomic-write.js';
import type { Paths } from './paths.js';
import {
  bodyOfText,
  readComments,
  readPlan,
  setPlanStatus,
  writeComments,
  writePlan,
  writePlanBody,
} from './plan-files.js';
import { WorkdirWatch } from './workdir-watch.js';

export class DiskWorkflowFiles implements WorkflowFiles {
  private readonly written: WrittenCopies;
  /** Every write below goes through it: a deleted work dir or a replaced state.json stops the run. */
  readonly watch: WorkdirWatch;

  constructor(
    readonly paths: Paths,
    readonly debugLog: DebugLog,
    /** Applied to state.json and log.md (debug.log redacts on its own). */
    readonly redactor: Redactor = patternRedactor,
  ) {
    this.written = new WrittenCopies(path.join(paths.workdir, '.written'));
    this.watch = new WorkdirWatch(paths, redactor);
  }

  private async bodyOf(which: WatchedFile): Promise<string | null> {
    return which === 'plan' ? this.readPlan() : this.readComments();
  }

  /** Records what agent-collab just wrote, so a later edit by the person can be told apart. */
  private async remember(which: WatchedFile): Promise<void> {
    await this.written.remember(which, await this.bodyOf(which));
  }

  /** remember(), from the text just written (not read back: an edit by the person right after is still noticed). */
  private async rememberWritten(which: WatchedFile, text: string): Promise<void> {
    this.watch.wrote(which === 'plan' ? this.paths.plan : this.paths.comments, text);
    await this.written.remember(
      which,
      await bodyOfText(text, which === 'plan' ? this.paths.plan : this.paths.comments),
    );
  }

  async changedOutside(which: WatchedFile): Promise<boolean> {
    return changedSinceWritten(await this.bodyOf(which), await this.written.last(which));
  }

  async resolveExternal(
    which: WatchedFile,
    incoming: string,
    choice: ExternalChangeChoice,
  ): Promise<string | { conflicts: number; yours: string; backup: string }> {
    const name = path.basename(which === 'plan' ? this.paths.plan : this.paths.comments);
    const r = await reconcile({
      choice,
      current: await this.bodyOf(which),
      written: await this.written.last(which),
      incoming,
      backupDir: path.join(this.paths.workdir, 'backups'),
      name,
    });
    await this.appendLog(`${name} changed outside agent-collab: ${choice}`, [r.note]);
    if (!r.conflicts) return r.text;
    // The merge with its conflicts marked goes into the file itself, where the person resolves them.
    const file = which === 'plan' ? this.paths.plan : this.paths.comments;
    await this.rememberWritten(which, await this.watch.guard(() => writePlanBody(file, r.text)));
    return { conflicts: r.conflicts.count, yours: r.conflicts.yours, backup: r.conflicts.backup };
  }

  /** The person's edit of `which` is accepted as the new base (e.g. after editing the plan by hand). */
  async acceptEdit(which: WatchedFile): Promise<void> {
    await this.remember(which);
  }

  saveState(state: WorkflowState): Promise<void> {
    return this.watch.save(state);
  }

  async readPlan(): Promise<string | null> {
    return (await readPlan(this.paths.plan))?.body ?? null;
  }

  async readComments(): Promise<string | null> {
    return (await readComments(this.paths.comments))?.body ?? null;
  }

  async writePlan(body: string, iteration: number): Promise<void> {
    await this.rememberWritten(
      'plan',
      await this.watch.guard(() => writePlan(this.paths.plan, { body, status: 'reviewing', iteration })),
    );
  }

  async writeComments(body: string, verdict: Verdict, iteration: number): Promise<void> {
    await this.rememberWritten(
      'comments',
      await this.watch.guard(() => writeComments(this.paths.comments, { body, status: verdict, iteration })),
    );
  }

  /** ledger.md is agent-collab's own rendering of the state: written whole, atomically, redacted like log.md. */
  writeLedger(text: string): Promise<void> {
    const file = this.paths.ledger;
    return this.watch.guard(() => inOrder(file, () => writeAtomic(file, this.redactor.text(text))));
  }

  async setPlanStatus(status: 'draft' | 'reviewing' | 'approved'): Promise<void> {
    if (!(await exists(this.paths.plan))) return;
    await this.watch.guard(() => setPlanStatus(this.paths.plan, status));
  }

  async readSteps(): Promise<StepInfo[]> {
    return parseSteps((await this.readPlan()) ?? '');
  }

  async markStepDone(step: number, commit: string | null): Promise<void> {
    const body = await this.readPlan();
    if (body === null) return;
    await this.rememberWritten(
      'plan',
      await this.watch.guard(() => writePlanBody(this.paths.plan, markStepDone(body, step, commit))),
    );
  }

  async appendSteps(titles: string[]): Promise<void> {
    const body = (await this.readPlan()) ?? '';
    await this.rememberWritten(
      'plan',
      await this.watch.guard(() => writePlanBody(this.paths.plan, appendSteps(body, titles))),
    );
  }

  async markStepSkipped(step: number): Promise<void> {
    const body = await this.readPlan();
    if (body === null) return;
    await this.rememberWritten(
      'plan',
      await this.watch.guard(() => writePlanBody(this.paths.plan, markStepSkipped(body, step))),
    );
  }

  appendLog(title: string, lines: string[]): Promise<void> {
    return this.watch.guard(() => appendLog(this.paths.log, { title, lines }, this.redactor.text));
  }

  archive(state: WorkflowState): Promise<string> {
    return this.watch.guard(async () => {
      const where = await archiveRun(this.paths, { goal: state.goal });
      this.watch.forget();
      return where;
    });
  }

  debug(source: string, line: string): void {
    this.debugLog.write(source, line);
  }
}

function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}
