import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { appendFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { patternRedactor, type Redactor } from '../core/redact.js';

/**
 * debug.log: `<ISO> [source] line` per line, rotated to debug.log.1 … .<keep> before it would pass `maxBytes`.
 * write() only buffers; one async append at a time drains the buffer in order. A failing disk never throws
 * from here: the error is kept in `lastError` and the lines are dropped. Every line is redacted on the way in
 * (per source, so a private key's body lines after its header line are hidden too).
 */
export class DebugLog {
  lastError: Error | null = null;
  /** Two strings per line, joined only in the append's buffer: its head (`<ISO> [source] `), then its text. */
  private pending: string[] = [];
  private size: number | null = null;
  private draining = false;
  /** The head of the current millisecond and source: an agent's stream writes thousands of lines in one. */
  private headMs = -1;
  private headSource = '';
  private head = '';
  private chain: Promise<void> = Promise.resolve();
  private readonly redactors = new Map<string, (line: string) => string>();

  constructor(
    readonly path: string,
    readonly maxBytes: number,
    readonly keep = 3,
    private readonly redactor: Redactor = patternRedactor,
  ) {}

  private redactLine(source: string): (line: string) => string {
    let redact = this.redactors.get(source);
    if (!redact) {
      redact = this.redactor.lines();
      this.redactors.set(source, redact);
    }
    return redact;
  }

  write(source: string, line: string): void {
    const now = Date.now();
    if (now !== this.headMs || source !== this.headSource) {
      this.headMs = now;
      this.headSource = source;
      this.head = `${new Date(now).toISOString()} [${source}] `;
    }
    // Cut first: a huge line is redacted only in what is kept of it.
    const redact = this.redactLine(source);
    if (!line.includes('\n')) this.pending.push(this.head, redact(this.bounded(line)));
    else
      for (const part of line.replace(/\r?\n$/, '').split(/\r?\n/))
        this.pending.push(this.head, redact(this.bounded(part)));
    if (!this.draining) {
      this.draining = true;
      this.chain = this.chain.then(() => this.drain());
    }
  }

  /**
   * A line shortened to its head and tail when it could take more than an eighth of the cap (3 bytes a character;
   * a quarter for tiny caps): one huge line (an agent's 50 MB message) still leaves the file within its cap.
   */
  private bounded(line: string): string {
    const max = Math.max(Math.floor(this.maxBytes / 24), Math.min(1024, Math.floor(this.maxBytes / 4)));
    if (line.length <= max) return line;
    const half = Math.floor(max / 2);
    return `${line.slice(0, half)} … [agent-collab: ${line.length - 2 * half} characters of this line not logged] … ${line.slice(-half)}`;
  }

  /** Resolves when everything written so far is on disk. */
  flush(): Promise<void> {
    return this.chain;
  }

  /** For process exit: writes what is still buffered synchronously. An append already under way may land after it. */
  flushSync(): void {
    const lines = this.takePending();
    if (lines.length === 0) return;
    try {
      mkdirSync(path.dirname(this.path), { recursive: true });
      this.size ??= sizeSync(this.path);
      for (const batch of this.batches(lines)) {
        if (batch.rotateFirst) this.rotateSync();
        appendFileSync(this.path, batch.data);
        this.size += batch.data.length;
      }
    } catch (err) {
      this.lastError = err as Error;
    }
  }

  private takePending(): string[] {
    const lines = this.pending;
    this.pending = [];
    this.draining = false;
    return lines;
  }

  private async drain(): Promise<void> {
    const lines = this.takePending();
    if (lines.length === 0) return;
    try {
      this.size ??= await stat(this.path).then(
        (s) => s.size,
        () => 0,
      );
      for (const batch of this.batches(lines)) {
        if (batch.rotateFirst) await this.rotate();
        await this.append(batch.data);
        this.size += batch.data.length;
      }
    } catch (err) {
      this.lastError = err as Error;
      this.size = null; // unknown now: stat again next time
    }
  }

  /** One append; the directory is made only when it is missing (not once per append: a stream appends often). */
  private async append(data: Buffer): Promise<void> {
    try {
      await appendFile(this.path, data);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await mkdir(path.dirname(this.path), { recursive: true });
      await appendFile(this.path, data);
    }
  }

  /**
   * Groups the pending lines (head, text pairs) into appends; a batch that would push the file past maxBytes
   * starts with a rotation. Each batch is written straight into one buffer: no line string is ever joined.
   */
  private *batches(parts: string[]): Generator<{ rotateFirst: boolean; data: Buffer }> {
    let size = this.size ?? 0;
    let first = 0;
    let bytes = 0;
    let rotateFirst = false;
    for (let i = 0; i < parts.length; i += 2) {
      const n = Buffer.byteLength(parts[i] as string) + Buffer.byteLength(parts[i + 1] as string) + 1;
      if (size > 0 && size + n > this.maxBytes) {
        if (i > first) yield { rotateFirst, data: joined(parts, first, i, bytes) };
        first = i;
        bytes = 0;
        rotateFirst = true;
        size = 0;
      }
      bytes += n;
      size += n;
    }
    if (parts.length > first) yield { rotateFirst, data: joined(parts, first, parts.length, bytes) };
  }

  private rotated(n: number): string {
    return `${this.path}.${n}`;
  }

  private async rotate(): Promise<void> {
    if (this.keep < 1) await rm(this.path, { force: true });
    else {
      await rm(this.rotated(this.keep), { force: true });
      for (let n = this.keep - 1; n >= 1; n--) await rename(this.rotated(n), this.rotated(n + 1)).catch(ignoreMissing);
      await rename(this.path, this.rotated(1)).catch(ignoreMissing);
    }
    this.size = 0;
  }

  private rotateSync(): void {
    if (this.keep < 1) rmSync(this.path, { force: true });
    else {
      rmSync(this.rotated(this.keep), { force: true });
      for (let n = this.keep - 1; n >= 1; n--) tryRenameSync(this.rotated(n), this.rotated(n + 1));
      tryRenameSync(this.path, this.rotated(1));
    }
    this.size = 0;
  }
}

/** The lines of parts[from..to) (head, text pairs), each ended by a newline, in one buffer of `bytes` bytes. */
function joined(parts: readonly string[], from: number, to: number, bytes: number): Buffer {
  const buf = Buffer.allocUnsafe(bytes);
  let at = 0;
  for (let i = from; i < to; i += 2) {
    at += buf.write(parts[i] as string, at);
    at += buf.write(parts[i + 1] as string, at);
    at = buf.writeUInt8(0x0a, at);
  }
  return buf;
}

function ignoreMissing(err: NodeJS.ErrnoException): void {
  if (err.code !== 'ENOENT') throw err;
}

function tryRenameSync(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (err) {
    ignoreMissing(err as NodeJS.ErrnoException);
  }
}

function sizeSync(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
