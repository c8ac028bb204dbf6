// A CLI's stdout through an unlinked temp file instead of a pipe. claude 2.1.197 (a Bun binary) writes to a pipe
// without blocking and exits with what the pipe did not take yet still queued: that output is lost (measured: a
// 2 MB answer arrives cut and without its result line, and a slow `--json` reader loses even a small one). Writes
// to a regular file always complete, so the CLI's whole output is on disk when it exits; it is read from there at
// the consumer's pace, so memory stays bounded (the disk holds what the consumer has not taken yet).
import { closeSync, mkdtempSync, openSync, read, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';

/** How long a reader that caught up with the file waits before it looks again. */
const POLL_MS = 25;
const CHUNK_BYTES = 64 * 1024;

export interface OutputSpool {
  /** The child's stdout (close it here once the child is spawned). */
  readonly writeFd: number;
  /** What the child wrote, in order; ends once `writerDone()` was called and everything was read. */
  readonly stream: Readable;
  /** Nothing writes to the file any more (the CLI's process group is gone): the stream ends at its end. */
  writerDone(): void;
  closeWriteEnd(): void;
}

export function openOutputSpool(): OutputSpool {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-collab-out-'));
  const file = path.join(dir, 'stdout');
  const writeFd = openSync(file, 'wx', 0o600);
  const readFd = openSync(file, 'r');
  // Unlinked at once: the space is freed when both ends are closed, even if agent-collab dies.
  rmSync(dir, { recursive: true, force: true });
  let position = 0;
  let done = false;
  let writeClosed = false;
  let timer: NodeJS.Timeout | undefined;
  const stream = new Readable({
    read() {
      const pull = (): void => {
        // Whether the writer was done before this read: only then does an empty read mean the end.
        const doneBefore = done;
        const buf = Buffer.allocUnsafe(CHUNK_BYTES);
        read(readFd, buf, 0, CHUNK_BYTES, position, (err, n) => {
          if (stream.destroyed) return;
          if (err) {
            stream.destroy(err);
          } else if (n > 0) {
            position += n;
            stream.push(buf.subarray(0, n));
          } else if (doneBefore) {
            stream.push(null);
          } else {
            timer = setTimeout(pull, POLL_MS);
          }
        });
      };
      pull();
    },
    destroy(err, callback) {
      clearTimeout(timer);
      try {
        closeSync(readFd);
      } catch {
        // already closed
      }
      callback(err);
    },
  });
  return {
    writeFd,
    stream,
    writerDone: () => {
      done = true;
    },
    closeWriteEnd: () => {
      if (writeClosed) return;
      writeClosed = true;
      closeSync(writeFd);
    },
  };
}
