// Telling the person's edits of plan.md / comments.md apart from agent-collab's own writes, and reconciling them.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runGit } from '../adapters/git/git.js';
import { MERGE_LABELS } from '../core/conflict-markers.js';
import type { ExternalChangeChoice } from '../core/types.js';
import { writeAtomic } from './atomic-write.js';

export type WatchedFile = 'plan' | 'comments';

/** Copies of the bodies agent-collab last wrote, in `<workdir>/.written/`, kept across restarts. */
export class WrittenCopies {
  constructor(private readonly dir: string) {}

  private file(which: WatchedFile): string {
    return path.join(this.dir, `${which}.md`);
  }

  async remember(which: WatchedFile, body: string | null): Promise<void> {
    if (body === null) return;
    // Not durable: after a power cut a lost copy at worst makes the next write ask about an outside edit.
    await writeAtomic(this.file(which), body, { durable: false });
  }

  async last(which: WatchedFile): Promise<string | null> {
    try {
      return await readFile(this.file(which), 'utf8');
    } catch {
      return null;
    }
  }
}

/** True when `current` differs from what agent-collab last wrote (unknown or missing counts as unchanged). */
export function changedSinceWritten(current: string | null, written: string | null): boolean {
  return current !== null && written !== null && current.trimEnd() !== written.trimEnd();
}

/** Three-way merge with `git merge-file`: the person's version and the agent's, from what agent-collab last wrote. */
export async function mergeBodies(
  base: string,
  yours: string,
  agents: string,
): Promise<{ text: string; conflicts: number }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'agent-collab-merge-'));
  try {
    const [b, y, a] = ['base.md', 'yours.md', 'agent.md'].map((n) => path.join(dir, n)) as [string, string, string];
    await Promise.all([writeFile(b, base), writeFile(y, yours), writeFile(a, agents)]);
    const r = await runGit(dir, [
      'merge-file',
      '-p',
      '-L',
      MERGE_LABELS.yours,
      '-L',
      MERGE_LABELS.base,
      '-L',
      MERGE_LABELS.agents,
      y,
      b,
      a,
    ]);
    // git merge-file exits with the number of conflicts (at most 127), or with a negative number (128–255 here) on an error.
    if (r.exitCode < 0 || r.exitCode > 127) throw new Error(`git merge-file failed: ${r.stderr.split('\n')[0] ?? ''}`);
    return { text: r.stdout, conflicts: r.exitCode };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The body to go on with after the person chose; `backupDir` receives the person's version on overwrite. */
export async function reconcile(opts: {
  choice: ExternalChangeChoice;
  current: string | null;
  written: string | null;
  incoming: string;
  backupDir: string;
  name: string;
  now?: Date;
}): Promise<{ text: string; note: string; conflicts?: { count: number; yours: string; backup: string } }> {
  const { choice, current, written, incoming } = opts;
  if (current === null) return { text: incoming, note: "the file was gone; the agent's version is used" };
  if (choice === 'discard')
    return { text: current, note: "your version is kept; the agent's new version was discarded" };
  const saveYours = async (): Promise<string> => {
    const stamp = (opts.now ?? new Date()).toISOString().replace(/[:.]/g, '-');
    const backup = path.join(opts.backupDir, `${opts.name.replace(/\.md$/, '')}-yours-${stamp}.md`);
    await writeAtomic(backup, current);
    return backup;
  };
  if (choice === 'overwrite') {
    const backup = await saveYours();
    return { text: incoming, note: `the agent's version is used; yours is saved as ${backup}` };
  }
  const merged = await mergeBodies(written ?? '', current, incoming);
  if (merged.conflicts === 0)
    return { text: merged.text, note: "your edit and the agent's version were merged cleanly" };
  // Conflicts go to the person, never on to an agent; their version is kept whatever they pick next.
  const backup = await saveYours();
  return {
    text: merged.text,
    note: `merged with ${merged.conflicts} conflict(s), marked with <<<<<<< and >>>>>>> for you to resolve; your version is saved as ${backup}`,
    conflicts: { count: merged.conflicts, yours: current, backup },
  };
}
