// Events that come from somewhere other than a CLI's stdout (its stderr), delivered in between its stdout lines as
// soon as they arrive, so a CLI that goes quiet on stdout (it waits to retry) is still heard.

export type Merged<L, E> = { line: L } | { event: E };

export class SideEvents<E> {
  private readonly queue: E[] = [];
  private wake: (() => void) | null = null;

  push(events: readonly E[]): void {
    if (events.length === 0) return;
    this.queue.push(...events);
    this.wake?.();
  }

  /** `lines` in order, with the side events in between as they come; ends when `lines` ends. */
  async *merge<L>(lines: AsyncIterable<L>): AsyncGenerator<Merged<L, E>> {
    const it = lines[Symbol.asyncIterator]();
    // The pending read is kept across wake-ups, so no line is lost when a side event wins the race.
    let next: Promise<IteratorResult<L>> | null = null;
    try {
      for (;;) {
        for (let e = this.queue.shift(); e !== undefined; e = this.queue.shift()) yield { event: e };
        next ??= it.next();
        const woken = new Promise<null>((resolve) => (this.wake = () => resolve(null)));
        const read = await Promise.race([next, woken]);
        this.wake = null;
        if (read === null) continue;
        next = null;
        if (read.done) return;
        yield { line: read.value };
      }
    } finally {
      this.wake = null;
      // Not awaited: a read still pending would hold the return until the CLI prints again or ends.
      void it.return?.()?.catch(() => undefined);
    }
  }
}
