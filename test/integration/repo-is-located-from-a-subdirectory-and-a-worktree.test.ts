// The work tree top and .git/info/exclude are found from a subdirectory and in a linked worktree (whose
// info/exclude is the main repository's, while its index and HEAD are its own: a step commit there lands on the
// worktree's branch); a plain directory gets the usual one-line advice.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { excludeWorkdir, locateRepo } from '../../src/adapters/git/git.js';
import { GitStepWorkspace } from '../../src/adapters/git/step-workspace.js';
import { tempRepo } from '../helpers/repo.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe('locateRepo', () => {
  it('from a subdirectory: the top and info/exclude, absolute', async () => {
    const repo = tempRepo();
    cleanups.push(repo.cleanup);
    const sub = path.join(repo.dir, 'src', 'deep');
    mkdirSync(sub, { recursive: true });
    const top = realpathSync(repo.dir);
    const git = path.join(repo.dir, '.git');
    expect(await locateRepo(sub)).toEqual({ root: top, excludeFile: path.join(git, 'info', 'exclude') });
  });

  it('in a linked worktree: the main repository’s info/exclude, written once; a step commit lands on the worktree’s branch', async () => {
    const repo = tempRepo();
    cleanups.push(repo.cleanup);
    const wt = path.join(mkdtempSync(path.join(os.tmpdir(), 'ac-wt-')), 'linked');
    cleanups.push(() => rmSync(path.dirname(wt), { recursive: true, force: true }));
    execFileSync('git', ['worktree', 'add', '-q', wt], { cwd: repo.dir, stdio: 'pipe' });
    const found = await locateRepo(wt);
    expect(found.root).toBe(realpathSync(wt));
    expect(realpathSync(found.excludeFile)).toBe(realpathSync(path.join(repo.dir, '.git', 'info', 'exclude')));
    // The person has staged a file in the worktree: it stays staged and out of the step's commit.
    writeFileSync(path.join(wt, 'mine.txt'), 'mine\n');
    execFileSync('git', ['add', 'mine.txt'], { cwd: wt });
    const mainHead = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo.dir, encoding: 'utf8' }).trim();
    const ws = new GitStepWorkspace(found.root, '.agent-collab');
    const base = await ws.snapshot();
    writeFileSync(path.join(wt, 'w.txt'), 'w\n');
    const r = await ws.commitStep({
      runId: 'run-1',
      step: 1,
      summary: 'In the worktree',
      baseTree: base,
      allowSecrets: false,
    });
    expect(r).toMatchObject({ kind: 'committed', files: ['w.txt'] });
    expect(r.kind === 'committed' && r.hash).toBe(
      execFileSync('git', ['rev-parse', 'HEAD'], { cwd: wt, encoding: 'utf8' }).trim(),
    );
    expect(execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo.dir, encoding: 'utf8' }).trim()).toBe(mainHead);
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: wt, encoding: 'utf8' })).toBe('A  mine.txt\n');

    await excludeWorkdir(found.excludeFile, '.agent-collab');
    await excludeWorkdir(found.excludeFile, '.agent-collab/');
    const lines = readFileSync(found.excludeFile, 'utf8').split('\n');
    expect(lines.filter((l) => l === '/.agent-collab/')).toHaveLength(1);
  });

  it('outside any repository: a one-line error that says what to do', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ac-norepo-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    await expect(locateRepo(dir)).rejects.toThrow(
      `${dir} is not inside a git repository; cd into your project or run \`git init\` first`,
    );
  });
});
