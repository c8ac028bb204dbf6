// A CLI's stdout, line by line, in bounded memory. The stream is read only as fast as the lines are taken, so a
// slow consumer (a `--json` reader that does not keep up) makes the CLI wait on its full pipe instead of agent-collab
// buffering its output. A line longer than the limit keeps its head and tail around a marker; when the line is one
// JSON object whose bulk is one string (a 100 MB message), the shortened line is still that JSON object.
import type { Readable } from 'node:stream';

/** Characters of one line kept in memory (a 1 MB plan passes whole; a 100 MB message is cut to this). */
export const MAX_LINE_CHARS = 4 * 1024 * 1024;

/** What stands for the cut middle: no quote and no backslash, so it is a valid part of a JSON string. */
export function cutMarker(chars: number): string {
  return ` … [agent-collab: ${chars} characters cut here; the line was too long to keep] … `;
}

/** One line being collected: its first `headMax` characters and, after them, the last `tailMax`. */
class LineParts {
  private head: string[] = [];
  private headLength = 0;
  private tail: string[] = [];
  private tailLength = 0;
  total = 0;

  constructor(
    private readonly headMax: number,
    private readonly tailMax: number,
  ) {}

  add(text: string): void {
    this.total += text.length;
    let rest = text;
    if (this.headLength < this.headMax) {
      const take = rest.slice(0, this.headMax - this.headLength);
      this.head.push(take);
      this.headLength += take.length;
      rest = rest.slice(take.length);
    }
    if (rest.length === 0) return;
    this.tail.push(rest);
    this.tailLength += rest.length;
    // Whole chunks that no longer reach into the last tailMax characters are let go.
    while (this.tail.length > 1 && this.tailLength - (this.tail[0] as string).length >= this.tailMax) {
      this.tailLength -= (this.tail.shift() as string).length;
    }
  }

  finish(): string {
    const head = this.head.join('');
    let tail = this.tail.join('');
    if (this.total <= this.headMax + this.tailMax) return head + tail;
    tail = tail.slice(tail.length - this.tailMax);
    return joinCut(head, tail, this.total - head.length - tail.length);
  }
}

/**
 * head + marker + tail, cut where a JSON string stays valid: the head does not end inside an escape sequence or a
 * surrogate pair, and the tail does not start with a quote or a backslash that an escape before it owned.
 */
export function joinCut(head: string, tail: string, cut: number): string {
  let h = head;
  const lastBackslash = h.lastIndexOf('\\');
  if (lastBackslash >= 0 && lastBackslash >= h.length - 6) h = h.slice(0, lastBackslash); // `\uXXXX` at most
  let slashes = 0;
  while (slashes < h.length && h[h.length - 1 - slashes] === '\\') slashes++;
  if (slashes % 2 === 1) h = h.slice(0, -1);
  if (/[\ud800-\udbff]$/.test(h)) h = h.slice(0, -1);
  let start = 0;
  while (
    start < tail.length &&
    (tail[start] === '"' || tail[start] === '\\' || /[\udc00-\udfff]/.test(tail[start] as string))
  )
    start++;
  const t = tail.slice(start);
  return h + cutMarker(cut + (head.length - h.length) + start) + t;
}

/**
 * The lines of `stream` (without their newline; a CR before it is dropped), each at most about `maxChars` long.
 * `onChunk` is told of every chunk read (the idle timer); `waiting` of whether the reader waits for the stream
 * (true) or for its consumer (false).
 */
export async function* boundedLines(
  stream: Readable,
  opts: { maxChars?: number; onChunk?: () => void; waiting?: (waiting: boolean) => void } = {},
): AsyncGenerator<string> {
  const max = opts.maxChars ?? MAX_LINE_CHARS;
  const headMax = Math.ceil((max * 3) / 4);
  const tailMax = max - headMax;
  stream.setEncoding('utf8');
  let line = new LineParts(headMax, tailMax);
  const done = (): string => {
    const text = line.finish();
    line = new LineParts(headMax, tailMax);
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  };
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<string>;
  for (;;) {
    opts.waiting?.(true);
    const next = await iterator.next();
    opts.waiting?.(false);
    if (next.done) break;
    opts.onChunk?.();
    const chunk = next.value;
    let from = 0;
    for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', from)) {
      line.add(chunk.slice(from, nl));
      from = nl + 1;
      yield done();
    }
    if (from < chunk.length) line.add(chunk.slice(from));
  }
  if (line.total > 0) yield done();
}
