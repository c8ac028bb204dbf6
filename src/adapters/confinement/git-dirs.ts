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
