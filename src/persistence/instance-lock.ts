import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { lock } from 'proper-lockfile';
import { EXIT, UserError } from '../core/errors.js';
import { writeAtomic } from './atomic-write.js';

export interface InstanceLockOptions {
  /** Gets a one-line warning if the lock is lost while held (lock dir deleted, system slept too long). Default: print to stderr. */
  onCompromised?: (message: string) => void;
  /** proper-lockfile staleness in ms (min 2000); a holder that stops refreshing for this long loses the lock. */
  staleMs?: number;
}

/**
 * One agent-collab per workdir: a proper-lockfile lock (`<workdir>/agent-collab.lock`) plus `<workdir>/agent-collab.pid`.
 * A lock whose pid is dead is taken over at once. Resolves to an idempotent release function.
 */
export async function acquireInstanceLock(
  workdir: string,
  opts: InstanceLockOptions = {},
): Promise<() => Promise<void>> {
  const dir = path.resolve(workdir);
  await mkdir(dir, { recursive: true });
  const lockDir = path.join(dir, 'agent-collab.lock');
  const pidFile = path.join(dir, 'agent-collab.pid');
  const warn = opts.onCompromised ?? ((m: string) => void process.stderr.write(`agent-collab: warning: ${m}\n`));
  const tryLock = () =>
    lock(dir, {
      lockfilePath: lockDir,
      realpath: false,
      stale: opts.staleMs ?? 10_000,
      onCompromised: (err) => warn(`lost the lock on ${dir} (${err.message}); another agent-collab may start here`),
    });

  let release: () => Promise<void>;
  try {
    release = await tryLock();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
    const holder = await readHolderPid(pidFile);
    if (holder === null || isAlive(holder)) throw lockedError(holder, lockDir);
    // The holder is dead: take over now instead of waiting for the lock's mtime to go stale.
    await rm(lockDir, { recursive: true, force: true });
    await rm(pidFile, { force: true });
    try {
      release = await tryLock();
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code !== 'ELOCKED') throw again;
      throw lockedError(await readHolderPid(pidFile), lockDir); // someone else took it over first
    }
  }
  await writeAtomic(pidFile, `${process.pid}\n`, { durable: false }); // a power cut ends the process it names

  let released: Promise<void> | null = null;
  return () => {
    released ??= (async () => {
      if ((await readPid(pidFile)) === process.pid) await rm(pidFile, { force: true });
      await release().catch(() => undefined); // already released or compromised: nothing left to do
    })();
    return released;
  };
}

function lockedError(pid: number | null, lockDir: string): UserError {
  if (pid === null) {
    return new UserError(
      `another agent-collab is running here (lock ${lockDir}); wait for it to finish, or delete that directory if none is running`,
      EXIT.badInput,
    );
  }
  // Only a program running several runs in-process (the library API) can hold the lock itself.
  if (pid === process.pid)
    return new UserError(
      'a run is already under way in this repo in this process; wait for it to end (one run per repo at a time)',
      EXIT.badInput,
    );
  return new UserError(
    `another agent-collab (pid ${pid}) is running here; wait for it to finish or stop it`,
    EXIT.badInput,
  );
}

/** The holder writes its pid just after taking the lock, so give a fresh holder a moment. */
async function readHolderPid(pidFile: string): Promise<number | null> {
  for (let i = 0; i < 5; i++) {
    const pid = await readPid(pidFile);
    if (pid !== null) return pid;
    await new Promise((r) => setTimeout(r, 50));
  }
  return null;
}

async function readPid(pidFile: string): Promise<number | null> {
  const text = await readFile(pidFile, 'utf8').catch(() => '');
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH'; // EPERM: alive, just not ours
  }
}
