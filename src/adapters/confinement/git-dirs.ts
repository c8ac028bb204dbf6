// The git directories a working tree depends on: `<repo>/.git` itself, and when `.git` is a file (a linked
// worktree or a submodule) the gitdir it points at plus that gitdir's common dir. All of them must stay read-only
// to a confined agent, wherever they live (a main repo under /tmp is inside a writable temp dir).
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

function readPointer(file: string, prefix: string): string | null {
  try {
    const text = readFileSync(file, 'utf8').trim();
    const value = text.startsWith(prefix) ? text.slice(prefix.length).trim() : text;
    return value === '' ? null : value;
  } catch {
    return null;
  }
}

/** Absolute paths of `<repo>/.git` and, for a `.git` file, its gitdir and common dir (those that exist). */
export function gitDirsOf(repo: string): string[] {
  const dotGit = path.join(repo, '.git');
  const dirs = [dotGit];
  let isFile = false;
  try {
    isFile = statSync(dotGit).isFile();
  } catch {
    return dirs;
  }
  if (!isFile) return dirs;
  const target = readPointer(dotGit, 'gitdir:');
  if (target === null) return dirs;
  // Its real path: git resolves a relative commondir from the real git dir, not through a symlink.
  let gitdir = path.resolve(repo, target);
  try {
    gitdir = realpathSync(gitdir);
  } catch {
    // not there: left out below
  }
  dirs.push(gitdir);
  const common = readPointer(path.join(gitdir, 'commondir'), '');
  if (common !== null) dirs.push(path.resolve(gitdir, common));
  return dirs.filter((d, i) => dirs.indexOf(d) === i && existsSync(d));
}

/**
 * `<repo>/<path>/.git` of each submodule `.gitmodules` names (those that exist): in the writable working tree, yet
 * a repo's pointer. An agent that made one a repo of its own (with a core.fsmonitor) would have the person's later
 * `git status` run its code, so the box keeps them read-only (a mount point cannot be moved aside either).
 */
export function submoduleGitLinks(repo: string): string[] {
  let text: string;
  try {
    text = readFileSync(path.join(repo, '.gitmodules'), 'utf8');
  } catch {
    return [];
  }
  const links: string[] = [];
  for (const m of text.matchAll(/^\s*path\s*=\s*(.+?)\s*$/gm)) {
    const link = path.resolve(repo, m[1] ?? '', '.git');
    const inside = path.relative(repo, link);
    if (!inside.startsWith('..') && !path.isAbsolute(inside) && existsSync(link)) links.push(link);
  }
  return links;
}
