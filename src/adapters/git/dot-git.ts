// `<repo>/.git` when it is a symlink (to a git dir kept elsewhere) or a gitfile (`gitdir: …`, a linked worktree):
// the box makes the git dir it names read-only, but a symlink in the writable working tree can itself be replaced,
// pointing git at a git dir the agent made (with its own hooks or `core.fsmonitor`). It is compared from disk and
// put back before agent-collab runs any git command after a turn.
import { createHash } from 'node:crypto';
import { lstat, readFile, readlink, rename, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface DotGit {
  kind: 'dir' | 'symlink' | 'file' | 'other' | 'missing';
  /** The link's target or the gitfile's content; '' otherwise. */
  target: string;
}

export async function readDotGit(repoRoot: string): Promise<DotGit> {
  const dotGit = path.join(repoRoot, '.git');
  try {
    const st = await lstat(dotGit);
    if (st.isSymbolicLink()) return { kind: 'symlink', target: await readlink(dotGit) };
    if (st.isFile()) return { kind: 'file', target: await readFile(dotGit, 'utf8') };
    return { kind: st.isDirectory() ? 'dir' : 'other', target: '' };
  } catch {
    return { kind: 'missing', target: '' };
  }
}

/** Whether `.git` needs guarding here: a real directory is a mount point in the box (it cannot be replaced). */
export function guardsDotGit(d: DotGit): boolean {
  return d.kind === 'symlink' || d.kind === 'file';
}

export function dotGitHash(d: DotGit): string {
  return createHash('sha256').update(`${d.kind}\0${d.target}`).digest('hex');
}

/**
 * Puts the link or gitfile back as `was`. What is there now is renamed aside (`.git.changed-<time>`), never deleted:
 * it may be a whole directory. Resolves to a line for the person.
 */
export async function putBackDotGit(repoRoot: string, was: DotGit, now: DotGit): Promise<string> {
  const dotGit = path.join(repoRoot, '.git');
  let aside = '';
  if (now.kind !== 'missing') {
    aside = `.git.changed-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    await rename(dotGit, path.join(repoRoot, aside));
  }
  if (was.kind === 'symlink') await symlink(was.target, dotGit);
  else await writeFile(dotGit, was.target);
  return `.git put back (pointing at ${was.kind === 'symlink' ? was.target : was.target.trim()})${aside ? `; what the agent left there is in ${aside}` : ''}`;
}
