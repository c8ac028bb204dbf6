// A repo whose `.git` is a symlink to a git dir kept elsewhere: the box makes the real git dir read-only (a write
// through the link fails), and a link the agent re-points at a git dir of its own is put back before agent-collab
// runs git again, so git's answers come from the real repository. Real git, real bwrap.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readlinkSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repoStateOf } from '../../helpers/boxed-workspace.js';
import { tempRepo } from '../../helpers/repo.js';
import { runBoxed } from './helpers.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function setup() {
  const repo = tempRepo();
  cleanup = repo.cleanup;
  const realGit = path.join(repo.home, 'real-git');
  renameSync(path.join(repo.dir, '.git'), realGit);
  symlinkSync(realGit, path.join(repo.dir, '.git'));
  const work = path.join(repo.dir, '.agent-collab');
  mkdirSync(work, { recursive: true });
  writeFileSync(path.join(work, 'plan.md'), '# plan\n');
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: repo.dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  const state = repoStateOf(repo.dir);
  return { repo, realGit, work, git, state };
}

describe('a .git that is a symlink', () => {
  it('the real git dir behind it is read-only in the box: writes and commits through the link fail', () => {
    const { repo, realGit, git } = setup();
    const head = git('rev-parse', 'HEAD');
    const r = runBoxed(
      { repo: repo.dir, workdir: '.agent-collab' },
      [
        'echo x > .git/planted',
        `echo x > ${JSON.stringify(path.join(realGit, 'planted-direct'))}`,
        'echo y > y.txt && git add y.txt && git commit -q -m sneaky',
        'git branch sneaky',
        'exit 0',
      ].join('\n'),
    );
    expect(r.code).toBe(0);
    expect(r.output).toMatch(/Read-only file system/);
    expect(existsSync(path.join(realGit, 'planted'))).toBe(false);
    expect(existsSync(path.join(realGit, 'planted-direct'))).toBe(false);
    expect(git('rev-parse', 'HEAD')).toBe(head);
    expect(git('branch', '--list', 'sneaky')).toBe('');
  });

  it('a link the agent re-pointed at a git dir of its own is put back before git runs, and reported', async () => {
    const { repo, realGit, git, state } = setup();
    const head = git('rev-parse', 'HEAD');
    const before = await state.take();
    const r = runBoxed(
      { repo: repo.dir, workdir: '.agent-collab' },
      [
        'git init -q evil && git -C evil -c user.name=x -c user.email=x@x commit -q --allow-empty -m evil',
        'mv .git .git-moved && ln -s evil/.git .git',
        'exit 0',
      ].join('\n'),
    );
    expect(r.code).toBe(0);
    expect(readlinkSync(path.join(repo.dir, '.git'))).toBe('evil/.git');
    const { after, changes } = await state.compare(before);
    expect(changes).toContain('.git changed');
    // git's answers came from the real repository: the link was put back first
    expect(after.snapshot.head).toBe(head);
    expect(readlinkSync(path.join(repo.dir, '.git'))).toBe(realGit);
    const notes = await state.restore(before, after);
    expect(notes.join('\n')).toMatch(
      /^\.git put back \(pointing at .*real-git\); what the agent left there is in \.git\.changed-/m,
    );
    expect(git('rev-parse', 'HEAD')).toBe(head);
  });
});
