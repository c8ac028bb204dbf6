// The homes agent-collab gives a CLI (gemini, opencode), one per repo or worktree, so that nothing a turn writes is
// on a path the person's own CLI uses. Each records the repo it serves, and a home whose repo is gone (a worktree
// that `clean` removed, a deleted checkout) is removed when another is prepared. A home of a repo that still exists
// stays: its sessions resume an unfinished run.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** `$XDG_STATE_HOME/agent-collab/<cli>/<key of the repo>` (else under ~/.local/state). */
export function agentHome(env: NodeJS.ProcessEnv, cli: string, repo: string): string {
  const state =
    env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME)
      ? env.XDG_STATE_HOME
      : path.join(env.HOME ?? os.homedir(), '.local', 'state');
  const key = createHash('sha256').update(path.resolve(repo)).digest('hex').slice(0, 16);
  return path.join(state, 'agent-collab', cli, key);
}

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
