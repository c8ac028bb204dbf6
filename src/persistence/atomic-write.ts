import { randomBytes } from 'node:crypto';
import { mkdir, open, realpath, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

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
 * (a pid file, the copies kept to notice outside edits). The file keeps its mode; a symlink keeps pointing at it.
 *
 * Not write-file-atomic's asynchronous call: while a write is under way it holds a signal-exit handler, which
 * re-raises a SIGTERM/SIGINT our own handler has taken, killing the process before the state is saved.
 */
export async function writeAtomic(file: string, data: string, opts: { durable?: boolean } = {}): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const target = await realpath(file).catch(() => file);
  const mode = await stat(target).then(
    (s) => s.mode & 0o7777,
    () => null,
  );
  const tmp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await open(tmp, 'wx');
    try {
      if (mode !== null) await handle.chmod(mode);
      await handle.writeFile(data, 'utf8');
      if (opts.durable ?? true) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  if (opts.durable ?? true) await syncDir(path.dirname(target));
}

/** The rename itself reaches the disk only with its directory: fsync that too (where the OS allows it). */
async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => null);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // some file systems and platforms cannot fsync a directory; the file's own fsync is what is left
  } finally {
    await handle.close();
  }
}
