// The inbox's folders: `.agent-collab/inbox/*.md` waiting, `inbox/done/`, `inbox/failed/`, and `reports/`. They are
// always in the person's checkout (`.agent-collab/` at the repo root), also for runs in worktrees.
import { mkdir, readdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { EXIT, UserError } from '../core/errors.js';
import { acquireInstanceLock } from '../persistence/instance-lock.js';

export interface InboxDirs {
  root: string;
  inbox: string;
  done: string;
  failed: string;
  reports: string;
}

export function inboxDirs(repoRoot: string): InboxDirs {
  const root = path.join(repoRoot, '.agent-collab');
  const inbox = path.join(root, 'inbox');
  return {
    root,
    inbox,
    done: path.join(inbox, 'done'),
    failed: path.join(inbox, 'failed'),
    reports: path.join(root, 'reports'),
  };
}

/** The instruction files waiting: regular `*.md` files directly in the inbox. */
export async function inboxFiles(dirs: InboxDirs): Promise<string[]> {
  const entries = await readdir(dirs.inbox, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => path.join(dirs.inbox, e.name))
    .sort();
}

/**
 * Moves `file` into `dir`; a name taken there (the same instruction run before) gets `-2`, `-3`, … Null when the
 * file is gone (the person deleted or moved it while its run went on): there is nothing to move, the report still
 * gets written.
 */
export async function moveInto(file: string, dir: string): Promise<string | null> {
  await mkdir(dir, { recursive: true });
  const base = path.basename(file, '.md');
  for (let n = 1; ; n++) {
    const target = path.join(dir, n === 1 ? `${base}.md` : `${base}-${n}.md`);
    if (await stat(target).catch(() => null)) continue;
    try {
      await rename(file, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' && !(await stat(file).catch(() => null))) return null;
      throw err;
    }
    return target;
  }
}

/**
 * One queue per inbox: a second one would take the same instructions and run each again (twice the cost, a
 * second branch). The lock is the instance lock's (a dead holder's is taken over at once), on the inbox dir.
 * Resolves to its release.
 */
export async function lockInbox(dirs: InboxDirs): Promise<() => Promise<void>> {
  try {
    return await acquireInstanceLock(dirs.inbox);
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    const holder = /pid (\d+)/.exec(err.message)?.[1];
    const who = holder ? ` (pid ${holder})` : err.message.includes('in this process') ? ' in this process' : '';
    throw new UserError(
      `another \`agent-collab queue\`${who} is working on this inbox (${dirs.inbox}); wait for it to end, or stop it`,
      EXIT.badInput,
    );
  }
}
