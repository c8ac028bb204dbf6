// File-system errors agent-collab's files can run into that the person has to fix (permissions, a read-only disk, a
// directory where a file belongs): one line naming the path and what to do, exit code 2, never "internal error".
import { EXIT, UserError } from '../core/errors.js';

const ADVICE: Record<string, (file: string) => string> = {
  EACCES: (f) => `agent-collab may not write or read ${f}; fix its permissions (or its directory's)`,
  EPERM: (f) => `agent-collab may not change ${f}; fix its permissions or attributes (e.g. chattr -i)`,
  EROFS: (f) => `${f} is on a read-only file system; run agent-collab where it can write its files`,
  EISDIR: (f) => `${f} is a directory where agent-collab expects a file; move it aside`,
  ENOTDIR: (f) => `a part of ${f} is a file where agent-collab expects a directory; move it aside`,
  ENOSPC: (f) => `no space left on the device of ${f}; free some space`,
  EDQUOT: (f) => `the disk quota for ${f} is used up; free some space`,
};

function errnoOf(err: unknown): NodeJS.ErrnoException | null {
  return err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string'
    ? (err as NodeJS.ErrnoException)
    : null;
}

/**
 * One line for a file-system error the person can fix, or null for anything else. `file` names the file when the
 * error does not (a read of a directory fails in `read`, which carries no path).
 */
export function describeFsError(err: unknown, file?: string): string | null {
  const e = errnoOf(err);
  const advise = e?.code ? ADVICE[e.code] : undefined;
  if (!e || !advise) return null;
  const where = file ?? e.path ?? 'a file of agent-collab';
  const what = e.syscall ? `${e.syscall} failed with ${e.code}` : e.code;
  return `${advise(where)} (${what})`;
}

/** `err` as a UserError (exit 2) when it is such a file-system error; anything else unchanged. */
export function asUserError(err: unknown, file?: string): unknown {
  if (err instanceof UserError) return err;
  const line = describeFsError(err, file);
  return line === null ? err : new UserError(line, EXIT.badInput);
}
