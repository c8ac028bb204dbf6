import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/** Per file, the last call still under way in this process. */
const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` after every earlier call for the same `file` in this process has settled, so writes land in call order.
 * Only this process writes the work dir's files: the instance lock keeps every other agent-collab out.
 */
export function inOrder<T>(file: string, fn: () => Promise<T>): Promise<T> {
  const key = path.resolve(file);
  const previous = queues.get(key) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(fn);
  const tail = run.catch(() => undefined);
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}

/**
 * Write to a temp file, fsync, rename: readers see the old or the new content, never half of it, and after a power
 * cut the new content is there. `durable: false` skips the fsync, for files whose loss in a power cut costs nothing
 * (a pid file, the copies kept to notice outside edits).
 */
export async function writeAtomic(file: string, data: string, opts: { durable?: boolean } = {}): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, data, { encoding: 'utf8', fsync: opts.durable ?? true });
}
