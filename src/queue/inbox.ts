// The inbox's folders: `.agent-collab/inbox/*.md` waiting, `inbox/done/`, `inbox/failed/`, and `reports/`. They are
// always in the person's checkout (`.agent-collab/` at the repo root), also for runs in worktrees.
import { mkdir, readdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';

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

/** Moves `file` into `dir`; a name taken there (the same instruction run before) gets `-2`, `-3`, … */
export async function moveInto(file: string, dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const base = path.basename(file, '.md');
  for (let n = 1; ; n++) {
    const target = path.join(dir, n === 1 ? `${base}.md` : `${base}-${n}.md`);
    if (await stat(target).catch(() => null)) continue;
    await rename(file, target);
    return target;
  }
}
