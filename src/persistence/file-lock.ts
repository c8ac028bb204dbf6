import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { lock, lockSync } from 'proper-lockfile';
import writeFileAtomic from 'write-file-atomic';
import { EXIT, UserError } from '../core/errors.js';

/** In-process queue per file, so writes from this process land in call order instead of racing for the lock. */
const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` after every earlier call for the same `file` in this process has settled, so writes land in call order.
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
 * Runs `fn` while holding a proper-lockfile lock on `file` (lock dir `<file>.lock`; the file need not exist), in call
 * order within this process. A live holder is waited for ~7 s, then a UserError; a lock left by a killed process
 * goes stale after 5 s and is taken.
 */
export function withFileLock<T>(file: string, fn: () => Promise<T>): Promise<T> {
  return inOrder(file, () => lockAndRun(path.resolve(file), fn));
}

async function lockAndRun<T>(file: string, fn: () => Promise<T>): Promise<T> {
  mkdirSync(path.dirname(file), { recursive: true });
  const options = {
    lockfilePath: `${file}.lock`,
    realpath: false,
    stale: 5_000,
    onCompromised: () => undefined, // the write is short; a lost lock must not crash the process
  };
  let release: () => unknown;
  try {
    // Free (as it is unless something else writes here): taken synchronously, a mkdir and a stat, where the
    // asynchronous call costs a thread-pool round trip each, several milliseconds while the CLIs keep both cores busy.
    release = lockSync(file, options);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
    release = await lockWaiting(file, options);
  }
  try {
    return await fn();
  } finally {
    try {
      await release();
    } catch {
      // already released or compromised: nothing left to do
    }
  }
}

/** The lock once its holder lets go: retried for ~7 s, then a UserError. */
async function lockWaiting(file: string, options: Parameters<typeof lock>[1]): Promise<() => Promise<void>> {
  try {
    return await lock(file, { ...options, retries: { retries: 20, factor: 1.5, minTimeout: 20, maxTimeout: 500 } });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
    throw new UserError(
      `${file} is locked by another process; try again, or delete ${file}.lock if no agent-collab is running`,
      EXIT.badInput,
    );
  }
}

/**
 * Write to a temp file, fsync, rename: readers see the old or the new content, never half of it.
 *
 * Done synchronously: these are small files (state.json, plan.md, comments.md) written while the run waits for
 * them, and the ~10 steps of the asynchronous version each wait for a thread-pool round trip: ~2.5 ms a write
 * instead of ~1 ms (measured on the same disk). The event loop is held for that millisecond.
 *
 * `durable: false` skips the fsync, for files whose loss in a power cut costs nothing (a pid file, the copies kept
 * to notice outside edits): still atomic for every reader, and an fsync takes 3–8 ms while git and an agent are
 * writing beside it (measured in the step loop on ext4; 0.3 ms on an idle disk).
 */
export function writeAtomic(file: string, data: string, opts: { durable?: boolean } = {}): Promise<void> {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileAtomic.sync(file, data, { encoding: 'utf8', fsync: opts.durable ?? true });
    return Promise.resolve();
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
}

