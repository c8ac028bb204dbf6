// Bounds the gemini homes agent-collab makes (one per repo or worktree, gemini-agent.ts `geminiHome`): each records
// the repo it serves, and a home whose repo is gone (a worktree that `clean` removed, a deleted checkout) is removed
// when another is prepared. A home of a repo that still exists stays: its gemini sessions resume an unfinished run.
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The file in a home that names its repo. */
export const HOME_REPO_FILE = 'repo';

export function recordHomeRepo(home: string, repo: string): void {
  writeFileSync(path.join(home, HOME_REPO_FILE), `${path.resolve(repo)}\n`, { mode: 0o600 });
}

function repoIsGone(home: string): boolean {
  let repo: string;
  try {
    repo = readFileSync(path.join(home, HOME_REPO_FILE), 'utf8').trim();
  } catch {
    return false; // not one that names its repo (made before, or being made): left alone
  }
  if (!path.isAbsolute(repo)) return false;
  try {
    return !statSync(repo).isDirectory();
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** Removes the homes beside `keep` whose repo is gone; what it cannot read or remove it leaves. Returns the removed. */
export function pruneGoneHomes(keep: string): string[] {
  const parent = path.dirname(keep);
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const home = path.join(parent, name);
    if (home === path.resolve(keep) || !/^[0-9a-f]{16}$/.test(name) || !repoIsGone(home)) continue;
    try {
      rmSync(home, { recursive: true, force: true });
      removed.push(home);
    } catch {
      // kept; the next prepare tries again
    }
  }
  return removed;
}
