// stderr events reach the round while stdout is silent (a CLI waiting to retry prints nothing there), and no
// stdout line is lost or reordered when a side event wins the race.
import { describe, expect, it } from 'vitest';
import { SideEvents } from '../../../src/adapters/side-events.js';

/** An async line source the test feeds by hand. */
function lineSource() {
  const queue: Array<IteratorResult<string>> = [];
  let waiting: ((r: IteratorResult<string>) => void) | null = null;
  const feed = (r: IteratorResult<string>) => {
    if (waiting) {
      const w = waiting;
      waiting = null;
      w(r);
    } else queue.push(r);
  };
  const lines: AsyncIterable<string> = {
    [Symbol.asyncIterator]: () => ({
      next: () => {
        const r = queue.shift();
        return r ? Promise.resolve(r) : new Promise((resolve) => (waiting = resolve));
      },
    }),
  };
  return {
    lines,
    line: (value: string) => feed({ value, done: false }),
    end: () => feed({ value: undefined, done: true }),
  };
}

describe('side events merged into a CLI’s stdout lines', () => {
  it('a side event pushed while stdout is silent is delivered at once; later lines keep their order', async () => {
    const src = lineSource();
    const side = new SideEvents<string>();
    const merged = side.merge(src.lines);
    src.line('a');
    expect(await merged.next()).toEqual({ done: false, value: { line: 'a' } });
    const pending = merged.next(); // stdout silent now
    side.push(['retry in 120 s']);
    expect(await pending).toEqual({ done: false, value: { event: 'retry in 120 s' } });
    src.line('b');
    src.line('c');
    expect(await merged.next()).toEqual({ done: false, value: { line: 'b' } });
    side.push(['x', 'y']);
    expect(await merged.next()).toEqual({ done: false, value: { event: 'x' } });
    expect(await merged.next()).toEqual({ done: false, value: { event: 'y' } });
    expect(await merged.next()).toEqual({ done: false, value: { line: 'c' } });
    src.end();
    expect(await merged.next()).toEqual({ done: true, value: undefined });
  });

  it('leaving early does not wait for a read still pending', async () => {
    const src = lineSource();
    const side = new SideEvents<string>();
    const merged = side.merge(src.lines);
    const pending = merged.next();
    side.push(['stop now']);
    expect(await pending).toEqual({ done: false, value: { event: 'stop now' } });
    await expect(merged.return(undefined)).resolves.toEqual({ done: true, value: undefined });
  });
});
