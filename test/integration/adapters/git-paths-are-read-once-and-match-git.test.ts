// The session's one read of where git keeps its files (git-paths.ts) gives what `git rev-parse --git-path` gives,
// in the main checkout and in a linked worktree (whose index and HEAD are its own, its config the common one), and a
// second ask starts no git process.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as git from '../../../src/adapters/git/git.js';
import { GIT_PATH_NAMES, GitPathsOnce } from '../../../src/adapters/git/git-paths.js';
import { tempRepo } from '../../helpers/repo.js';

const repos: Array<ReturnType<typeof tempRepo>> = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const r of repos.splice(0)) r.cleanup();
});

function gitPathOf(dir: string, name: string): string {
  const out = execFileSync('git', ['rev-parse', '--git-path', name], { cwd: dir, encoding: 'utf8' }).trim();
  return real(path.resolve(dir, out));
}

/** The path with its existing part resolved (symlinks in the temp dir), the rest as it is. */
function real(p: string): string {
  if (existsSync(p)) return realpathSync.native(p);
  return path.join(real(path.dirname(p)), path.basename(p));
}

describe('git paths read once per session', () => {
  it('match git rev-parse --git-path in the main checkout and in a linked worktree', async () => {
    const repo = tempRepo();
    repos.push(repo);
    const linked = path.join(repo.home, 'linked');
    execFileSync('git', ['worktree', 'add', '-q', '-b', 'side', linked], { cwd: repo.dir });
    for (const dir of [repo.dir, linked]) {
      const p = await new GitPathsOnce(dir).get();
      for (const name of GIT_PATH_NAMES) expect(real(p.gitPath(name)), name).toBe(gitPathOf(dir, name));
      expect(real(p.commonDir)).toBe(real(path.join(repo.dir, '.git')));
      expect(real(p.toplevel)).toBe(real(dir));
    }
    const inLinked = await new GitPathsOnce(linked).get();
    expect(real(inLinked.gitPath('index'))).not.toBe(real(path.join(repo.dir, '.git', 'index')));
    expect(real(inLinked.gitPath('config'))).toBe(real(path.join(repo.dir, '.git', 'config')));
  });

  it('read the same with a git older than 2.31, which echoes --path-format back as output', async () => {
    const repo = tempRepo();
    repos.push(repo);
    // A stand-in for git 2.26–2.30: an option it does not know is printed back as a line, with exit 0.
    const bin = path.join(repo.home, 'old-git');
    mkdirSync(bin);
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(
      path.join(bin, 'git'),
      [
        '#!/bin/sh',
        'echoed=',
        'for a in "$@"; do shift; case "$a" in --path-format=*) echoed="$a";; *) set -- "$@" "$a";; esac; done',
        '[ -n "$echoed" ] && printf \'%s\\n\' "$echoed"',
        `exec ${realGit} "$@"`,
      ].join('\n'),
      { mode: 0o755 },
    );
    const pathBefore = process.env.PATH;
    process.env.PATH = `${bin}:${pathBefore}`;
    try {
      const p = await new GitPathsOnce(repo.dir).get();
      for (const name of GIT_PATH_NAMES) expect(real(p.gitPath(name)), name).toBe(gitPathOf(repo.dir, name));
    } finally {
      process.env.PATH = pathBefore;
    }
  });

  it('a second ask starts no git process; a failed read is asked again', async () => {
    const repo = tempRepo();
    repos.push(repo);
    const spy = vi.spyOn(git, 'runGit');
    const once = new GitPathsOnce(repo.dir);
    await once.get();
    await once.get();
    expect(spy).toHaveBeenCalledTimes(1);

    const outside = new GitPathsOnce(repo.home); // not a repository
    await expect(outside.get()).rejects.toThrow(/could not find the repository's git dir/);
    await expect(outside.get()).rejects.toThrow(/could not find the repository's git dir/);
    expect(spy).toHaveBeenCalledTimes(3);
  });
});
