// The run report's git facts: only the run's `[Step N]` commits (by their run trailer), and what they changed over
// all of them — a file added then changed is added, added then deleted is not listed, a person's commit is not counted.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RUN_TRAILER } from '../../../src/adapters/git/git.js';
import { filesChangedBy, runCommits } from '../../../src/adapters/git/run-commits.js';
import { tempRepo } from '../../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('run report git facts', () => {
  it('lists the run’s commits oldest first and combines what they changed, outside agent-collab’s dir', async () => {
    const repo = tempRepo();
    cleanup = repo.cleanup;
    const dir = repo.dir;
    const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
    const write = (file: string, text: string): void => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    };
    const commit = (subject: string, run: string | null): string => {
      git('add', '-A', '--', '.');
      git('commit', '-q', '-m', subject, ...(run ? ['-m', `${RUN_TRAILER}: ${run}`] : []));
      return git('rev-parse', 'HEAD').trim();
    };
    write('old.txt', 'old\n');
    commit('base', null);

    write('a.txt', 'one\n');
    write('gone.txt', 'x\n');
    write('.agent-collab/notes.md', 'agent-collab’s own\n');
    const c1 = commit('[Step 1] add a', 'run-A');
    write('mine.txt', 'the person’s\n');
    commit('my own work', null);
    write('a.txt', 'one\ntwo\n');
    rmSync(path.join(dir, 'gone.txt'));
    rmSync(path.join(dir, 'old.txt'));
    write('img.bin', '\u0000\u0001\u0002');
    const c2 = commit('[Step 2] change a', 'run-A');
    write('other.txt', 'x\n');
    commit('[Step 1] another run', 'run-B');

    const commits = await runCommits(dir, 'run-A');
    expect(commits).toEqual([
      { hash: c1, subject: '[Step 1] add a' },
      { hash: c2, subject: '[Step 2] change a' },
    ]);
    const files = await filesChangedBy(dir, commits, ['.', ':(top,exclude,literal).agent-collab']);
    expect(files).toEqual([
      { path: 'a.txt', change: 'added', added: 2, removed: 0 },
      { path: 'img.bin', change: 'added', added: null, removed: null },
      { path: 'old.txt', change: 'deleted', added: 0, removed: 1 },
    ]);
    expect(await runCommits(dir, 'no-such-run')).toEqual([]);
  });
});
