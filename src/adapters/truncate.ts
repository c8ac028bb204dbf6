// Keeps text bounded: the head and the tail survive, the middle is replaced by a marker saying how much went.

function marker(droppedBytes: number): string {
  return `\n…[${droppedBytes} bytes truncated]…\n`;
}

/** Largest cut ≤ `at` that does not split a UTF-8 character. */
function headCut(buf: Buffer, at: number): number {
  let n = Math.min(Math.max(at, 0), buf.length);
  while (n > 0 && n < buf.length && ((buf[n] ?? 0) & 0xc0) === 0x80) n--;
  return n;
}

/** Smallest start ≥ `at` that does not begin inside a UTF-8 character. */
function tailStart(buf: Buffer, at: number): number {
  let n = Math.min(Math.max(at, 0), buf.length);
  while (n < buf.length && ((buf[n] ?? 0) & 0xc0) === 0x80) n++;
  return n;
}

/**
 * Returns `text` unchanged when it fits in `maxBytes` (UTF-8); otherwise its head and tail joined by a marker,
 * the whole result at most `maxBytes` long (when `maxBytes` is too small even for the marker, just a head).
 */
export function truncateMiddle(text: string, maxBytes: number): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= maxBytes) return text;
  const budget = maxBytes - Buffer.byteLength(marker(buf.length));
  if (budget <= 0) return buf.subarray(0, headCut(buf, maxBytes)).toString('utf8');
  const head = headCut(buf, Math.floor(budget / 2));
  const tail = tailStart(buf, buf.length - (budget - Math.floor(budget / 2)));
  return buf.subarray(0, head).toString('utf8') + marker(tail - head) + buf.subarray(tail).toString('utf8');
}

/**
 * A growing text kept at most about `maxBytes` in memory while it is appended to: the first half of the budget
 * is the head, the rest a rolling tail. `toString()` joins them with the truncation marker when bytes were dropped.
 */
export class HeadTailBuffer {
  private head = '';
  private headBytes = 0;
  private tail = Buffer.alloc(0);
  private dropped = 0;

  constructor(private readonly maxBytes: number) {}

  append(text: string): void {
    let buf = Buffer.from(text, 'utf8');
    const headMax = Math.floor(this.maxBytes / 2);
    if (this.headBytes < headMax && this.dropped === 0 && this.tail.length === 0) {
      const cut = headCut(buf, headMax - this.headBytes);
      this.head += buf.subarray(0, cut).toString('utf8');
      this.headBytes += cut;
      buf = buf.subarray(cut);
    }
    if (buf.length === 0) return;
    const tailMax = this.maxBytes - headMax;
    const joined = Buffer.concat([this.tail, buf]);
    const start = tailStart(joined, joined.length - tailMax);
    this.dropped += start;
    this.tail = joined.subarray(start);
  }

  get truncated(): boolean {
    return this.dropped > 0;
  }

  toString(): string {
    const tail = this.tail.toString('utf8');
    return this.dropped > 0 ? this.head + marker(this.dropped) + tail : this.head + tail;
  }
}

/** How much of one tool's or command's output an event carries (the raw line is in debug.log). */
export const TOOL_OUTPUT_MAX_BYTES = 8 * 1024;
