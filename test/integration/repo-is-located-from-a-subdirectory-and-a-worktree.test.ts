// One git process finds the work tree top, .git/info/exclude and the index — from a subdirectory, and in a linked
// worktree (whose index is its own while info/exclude is the main repository's) — and a plain directory gets the
// usual one-line advice.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { excludeWorkdir, locateRepo } from '../../src/engine/git.js';
import { tempRepo } from '../helpers/repo.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe('locateRepo', () => {
  it('from a subdirectory: the top, info/exclude and the index, all absolute', async () => {
    const repo = tempRepo();
    cleanups.push(repo.cleanup);
    const sub = path.join(repo.dir, 'src', 'deep');
    mkdirSync(sub, { recursive: true });
    const top = realpathSync(repo.dir);
    expect(await locateRepo(sub)).toEqual({ root: top, excludeFile: path.join(repo.dir, '.git', 'info', 'exclude'), indexFile: path.join(repo.dir, '.git', 'index') });
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
