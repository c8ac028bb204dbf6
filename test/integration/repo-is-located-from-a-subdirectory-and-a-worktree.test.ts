// One git process finds the work tree top, .git/info/exclude, the index and the ref files — from a subdirectory, and in a linked
// worktree (whose index is its own while info/exclude is the main repository's) — and a plain directory gets the
// usual one-line advice.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { excludeWorkdir, headCommitFromFiles, locateRepo } from '../../src/adapters/git/git.js';
import { tempRepo } from '../helpers/repo.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe('locateRepo', () => {
  it('from a subdirectory: the top, info/exclude, the index, HEAD and the branch refs, all absolute', async () => {
    const repo = tempRepo();
    cleanups.push(repo.cleanup);
    const sub = path.join(repo.dir, 'src', 'deep');
    mkdirSync(sub, { recursive: true });
    const top = realpathSync(repo.dir);
    const git = path.join(repo.dir, '.git');
    const found = await locateRepo(sub);
    expect(found).toEqual({
      root: top,
      excludeFile: path.join(git, 'info', 'exclude'),
      indexFile: path.join(git, 'index'),
      headFile: path.join(git, 'HEAD'),
      headsDir: path.join(git, 'refs', 'heads'),
    });
    expect(headCommitFromFiles(found)).toBe(execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo.dir, encoding: 'utf8' }).trim());
  });

  it('in a linked worktree: its own index, the main repository’s info/exclude; excluding the work dir writes there once', async () => {
    const repo = tempRepo();
    cleanups.push(repo.cleanup);
    const wt = path.join(mkdtempSync(path.join(os.tmpdir(), 'ac-wt-')), 'linked');
    cleanups.push(() => rmSync(path.dirname(wt), { recursive: true, force: true }));
    execFileSync('git', ['worktree', 'add', '-q', wt], { cwd: repo.dir, stdio: 'pipe' });
    const found = await locateRepo(wt);
    expect(found.root).toBe(realpathSync(wt));
    expect(realpathSync(found.excludeFile)).toBe(realpathSync(path.join(repo.dir, '.git', 'info', 'exclude')));
    expect(found.indexFile).toBe(path.join(realpathSync(repo.dir), '.git', 'worktrees', 'linked', 'index'));
    expect(found.headFile).toBe(path.join(realpathSync(repo.dir), '.git', 'worktrees', 'linked', 'HEAD'));
    expect(found.headsDir).toBe(path.join(realpathSync(repo.dir), '.git', 'refs', 'heads'));
    // The worktree's own branch: a commit there is read from the main repository's refs.
    writeFileSync(path.join(wt, 'w.txt'), 'w\n');
    execFileSync('git', ['add', 'w.txt'], { cwd: wt });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'in the worktree'], { cwd: wt });
    expect(headCommitFromFiles(found)).toBe(execFileSync('git', ['rev-parse', 'HEAD'], { cwd: wt, encoding: 'utf8' }).trim());

    await excludeWorkdir(found.excludeFile, '.agent-collab');
    await excludeWorkdir(found.excludeFile, '.agent-collab/');
    const lines = readFileSync(found.excludeFile, 'utf8').split('\n');
    expect(lines.filter((l) => l === '/.agent-collab/')).toHaveLength(1);
  });

  it('outside any repository: a one-line error that says what to do', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ac-norepo-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    await expect(locateRepo(dir)).rejects.toThrow(`${dir} is not inside a git repository; cd into your project or run \`git init\` first`);
  });
});
