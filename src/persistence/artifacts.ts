// A run's artifacts: `<runs>/<run-id>/step-<N>/attempt-<k>/` (prompt, events.jsonl, test output, patch, …) and
// `<runs>/<run-id>/timeline.md`. Artifacts are for looking back; a failing disk never stops the run: every error
// goes to the debug log (and `lastError`) instead of the caller. Everything written is redacted first (core/redact.ts):
// a rolled-back step's patch, too, keeps the step's work but not a secret it contained.
import { appendFile, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Artifacts } from '../core/ports.js';
import { patternRedactor, type Redactor } from '../core/redact.js';
import { writeAtomic } from './atomic-write.js';

export type ArtifactsDebug = (source: string, line: string) => void;

const SOURCE = 'artifacts';

function plainName(name: string, what: string): string {
  if (!name || name === '.' || name === '..' || /[/\\\0]/.test(name))
    throw new Error(`invalid artifact ${what}: ${JSON.stringify(name)}`);
  return name;
}

function positive(n: number, what: string): number {
  if (!Number.isInteger(n) || n < 0) throw new Error(`invalid artifact ${what}: ${n}`);
  return n;
}

export class RunArtifacts implements Artifacts {
  lastError: Error | null = null;
  readonly runDir: string;
  private readonly madeDirs = new Set<string>();
  /** events.jsonl lines waiting to be appended, per file, in order. */
  private pending = new Map<string, string[]>();
  private draining: Promise<void> = Promise.resolve();
  private drainScheduled = false;
  private timelineChain: Promise<void> = Promise.resolve();
  /** write() calls still under way (settled versions: they never reject). */
  private readonly writes = new Set<Promise<void>>();

  /** `runsDir` is `<workdir>/runs`. */
  constructor(
    runsDir: string,
    runId: string,
    private readonly debug: ArtifactsDebug,
    private readonly redactor: Redactor = patternRedactor,
  ) {
    this.runDir = path.join(runsDir, plainName(runId, 'run id'));
  }

  async attemptDir(step: number, attempt: number): Promise<string> {
    const dir = this.attemptPath(step, attempt);
    if (!this.madeDirs.has(dir)) {
      await mkdir(dir, { recursive: true });
      this.madeDirs.add(dir);
    }
    return dir;
  }

  write(step: number, attempt: number, name: string, content: string): Promise<void> {
    return this.save(step, attempt, name, content, false);
  }

  keep(step: number, attempt: number, name: string, content: string): Promise<void> {
    return this.save(step, attempt, name, content, true);
  }

  private save(step: number, attempt: number, name: string, content: string, mustLand: boolean): Promise<void> {
    const done = (async () => {
      const file = path.join(this.attemptPath(step, attempt), plainName(name, 'file name')); // a bad name rejects
      try {
        await this.attemptDir(step, attempt);
        await writeAtomic(file, this.redactor.text(content));
      } catch (err) {
        this.fail(`writing ${file}`, err);
        if (mustLand) throw err;
      }
    })();
    return this.track(done);
  }

  /** Counts a write for flush(). */
  private track(done: Promise<void>): Promise<void> {
    const forget = (): void => {
      this.writes.delete(settled);
    };
    const settled: Promise<void> = done.then(forget, forget);
    this.writes.add(settled);
    return done;
  }

  appendEvent(step: number, attempt: number, event: unknown): void {
    let line: string;
    try {
      line = `${JSON.stringify(this.redactor.deep(event)) ?? 'null'}\n`;
    } catch (err) {
      this.fail('encoding an event for events.jsonl', err);
      return;
    }
    let file: string;
    try {
      file = path.join(this.attemptPath(step, attempt), 'events.jsonl');
    } catch (err) {
      this.fail('appending to events.jsonl', err);
      return;
    }
    const lines = this.pending.get(file);
    if (lines) lines.push(line);
    else this.pending.set(file, [line]);
    if (!this.drainScheduled) {
      this.drainScheduled = true;
      this.draining = this.draining.then(() => this.drain());
    }
  }

  /** Resolves when every file written and event appended so far is on disk (or its failure logged). */
  async flush(): Promise<void> {
    await Promise.all([this.draining, this.timelineChain, ...this.writes]);
  }

  timeline(line: string): Promise<void> {
    const file = path.join(this.runDir, 'timeline.md');
    const entry = `- ${new Date().toISOString()} ${this.redactor.text(line.replace(/\s*\n\s*/g, ' ').trim())}\n`;
    this.timelineChain = this.timelineChain.then(async () => {
      try {
        const isNew = await stat(file).then(
          () => false,
          () => true,
        );
        if (isNew) await mkdir(this.runDir, { recursive: true });
        await appendFile(file, isNew ? `# Run ${path.basename(this.runDir)}\n\n${entry}` : entry);
      } catch (err) {
        this.fail(`appending to ${file}`, err);
      }
    });
    return this.timelineChain;
  }

  private attemptPath(step: number, attempt: number): string {
    return path.join(this.runDir, `step-${positive(step, 'step')}`, `attempt-${positive(attempt, 'attempt')}`);
  }

  private async drain(): Promise<void> {
    this.drainScheduled = false;
    const batches = this.pending;
    this.pending = new Map();
    for (const [file, lines] of batches) {
      try {
        await mkdir(path.dirname(file), { recursive: true });
        await appendFile(file, lines.join(''));
      } catch (err) {
        this.fail(`appending ${lines.length} line(s) to ${file}`, err);
      }
    }
  }

  private fail(what: string, err: unknown): void {
    this.lastError = err instanceof Error ? err : new Error(String(err));
    this.debug(SOURCE, `${what} failed: ${this.lastError.message}`);
  }
}
