// What a step attempt leaves under runs/<run id>/: prompt, events, patch, verdict and the run's timeline.
// Written without making the run wait: they are for looking back, and Engine.close() waits for them.
import type { EngineDeps } from './context.js';
import { errorMessage } from './context.js';

export class RunRecords {
  constructor(private readonly deps: EngineDeps) {}

  get enabled(): boolean {
    return this.deps.artifacts !== undefined;
  }

  timeline(line: string): void {
    this.deps.artifacts
      ?.timeline(line)
      .catch((err: unknown) => this.deps.files.debug('engine', `timeline: ${errorMessage(err)}`));
  }

  write(step: number, attempt: number, name: string, content: string): void {
    this.deps.artifacts
      ?.write(step, attempt, name, content)
      .catch((err: unknown) => this.deps.files.debug('engine', `artifact ${name}: ${errorMessage(err)}`));
  }

  appendEvent(step: number, attempt: number, event: unknown): void {
    this.deps.artifacts?.appendEvent(step, attempt, event);
  }

  /** The attempt's directory, or null without artifacts (or when it cannot be made). */
  async attemptDir(step: number, attempt: number): Promise<string | null> {
    return this.deps.artifacts ? this.deps.artifacts.attemptDir(step, attempt).catch(() => null) : null;
  }

  /** The only copy of something (a rolled-back step's patch): resolves once it is on disk, else rejects. */
  async keep(step: number, attempt: number, name: string, content: string): Promise<void> {
    await this.deps.artifacts?.keep(step, attempt, name, content);
  }

  /** A log.md entry for something git did that the state could not take any more (the run was stopped meanwhile). */
  async logDone(title: string, lines: string[]): Promise<void> {
    await this.deps.files
      .appendLog(title, lines)
      .catch((err: unknown) => this.deps.files.debug('engine', `log.md: ${errorMessage(err)}`));
  }

  verdict(step: number, attempt: number, verdict: Record<string, unknown>): void {
    this.write(step, attempt, 'verdict.json', `${JSON.stringify({ step, attempt, ...verdict }, null, 2)}\n`);
  }

  /** patch.diff (the step's changes since `baseTree`) and verdict.json of an attempt. */
  async attempt(
    step: number,
    attempt: number,
    baseTree: string | null | undefined,
    verdict: Record<string, unknown>,
  ): Promise<void> {
    if (!this.enabled) return;
    if (baseTree) {
      const changes = await this.deps.workspace.changedSince(baseTree).catch(() => null);
      if (changes) this.write(step, attempt, 'patch.diff', changes.patch);
    }
    this.verdict(step, attempt, verdict);
  }
}
