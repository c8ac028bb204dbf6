// An immutable list built for a stream: appending copies one small chunk, not the whole list, so a long agent
// stream costs O(1) per line however many entries are kept. Old entries fall off the front, a chunk at a time.

export const CHUNK_SIZE = 64;

export interface ChunkedList<T> {
  readonly chunks: ReadonlyArray<readonly T[]>;
  readonly size: number;
}

export function emptyList<T>(): ChunkedList<T> {
  return { chunks: [], size: 0 };
}

export function listFrom<T>(items: readonly T[]): ChunkedList<T> {
  return appendItems(emptyList<T>(), items, Number.POSITIVE_INFINITY);
}

/** Appends `items`, then drops the oldest entries so at most `max` remain. */
export function appendItems<T>(list: ChunkedList<T>, items: readonly T[], max: number): ChunkedList<T> {
  if (items.length === 0) return list;
  const chunks = list.chunks.slice();
  const last = chunks[chunks.length - 1];
  const open = last !== undefined && last.length < CHUNK_SIZE;
  let tail: T[] = open ? last.slice() : [];
  if (open) chunks.pop();
  for (const item of items) {
    if (tail.length === CHUNK_SIZE) {
      chunks.push(tail);
      tail = [];
    }
    tail.push(item);
  }
  chunks.push(tail);
  return dropFront({ chunks, size: list.size + items.length }, max);
}

function dropFront<T>(list: ChunkedList<T>, max: number): ChunkedList<T> {
  let extra = list.size - max;
  if (extra <= 0) return list;
  const chunks = list.chunks.slice();
  while (extra > 0 && chunks.length > 0) {
    const first = chunks[0] as readonly T[];
    if (first.length <= extra) {
      chunks.shift();
      extra -= first.length;
    } else {
      chunks[0] = first.slice(extra);
      extra = 0;
    }
  }
  return { chunks, size: Math.min(list.size, max) };
}

/** Replaces the newest item `match` picks (copying only its chunk); null when none matches. */
export function replaceLast<T>(
  list: ChunkedList<T>,
  match: (item: T) => boolean,
  update: (item: T) => T,
): ChunkedList<T> | null {
  for (let c = list.chunks.length - 1; c >= 0; c--) {
    const chunk = list.chunks[c] as readonly T[];
    for (let i = chunk.length - 1; i >= 0; i--) {
      const item = chunk[i] as T;
      if (!match(item)) continue;
      const copy = chunk.slice();
      copy[i] = update(item);
      const chunks = list.chunks.slice();
      chunks[c] = copy;
      return { chunks, size: list.size };
    }
  }
  return null;
}

export function lastItem<T>(list: ChunkedList<T>): T | undefined {
  return list.chunks[list.chunks.length - 1]?.at(-1);
}

export function* itemsOf<T>(list: ChunkedList<T>): Generator<T> {
  for (const chunk of list.chunks) yield* chunk;
}

export function toArray<T>(list: ChunkedList<T>): T[] {
  const out: T[] = [];
  for (const chunk of list.chunks) for (const item of chunk) out.push(item);
  return out;
}
