// With the real bubblewrap: a shell command in agent-collab's box (what codex runs in, and the test command) can
// write the repo's working tree and a private /tmp, and nothing else — not outside the repo, not $HOME, not .git,
// not .agent-collab — also for a linked worktree whose git dir lies elsewhere. Checked on disk and in git.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempRepo } from '../../helpers/repo.js';
import { git, gitSnapshot, mkdirs, runBoxed } from './helpers.js';

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.reverse()) c();
  cleanups = [];
});

function repoWithPlan() {
  const repo = tempRepo();
  cleanups.push(repo.cleanup);
  mkdirs(path.join(repo.dir, '.agent-collab'));
  writeFileSync(path.join(repo.dir, '.agent-collab', 'plan.md'), 'PLAN\n');
  return repo;
}

describe('the bubblewrap box', () => {
  it('lets a command write the working tree and /tmp, and nothing outside the repo, in $HOME, .git or .agent-collab sticks', () => {
    const repo = repoWithPlan();
    const outside = path.join(path.dirname(repo.dir), `outside-${path.basename(repo.dir)}`);
    const before = gitSnapshot(repo.dir);
    const spec = { repo: repo.dir, workdir: '.agent-collab', home: repo.home, tmpDir: '/tmp' };
    const attempts = {
      inRepo: runBoxed(spec, 'mkdir -p src && echo ok > src/new.txt'),
      tmp: runBoxed(spec, 'echo t > /tmp/ac-box-probe && cat /tmp/ac-box-probe'),
      outside: runBoxed(spec, `echo x > ${outside}`),
      home: runBoxed(spec, `echo x >> ${repo.home}/.bashrc`),
      plan: runBoxed(spec, 'echo hacked > .agent-collab/plan.md'),
      planDelete: runBoxed(spec, 'rm -f .agent-collab/plan.md'),
      branch: runBoxed(spec, 'git checkout -q -b sneaky'),
      commit: runBoxed(spec, 'git add -A && git commit -qm sneaky'),
      reset: runBoxed(spec, 'git update-ref refs/heads/main HEAD~0 && git reset -q --hard HEAD'),
      gitHook: runBoxed(spec, 'echo x > .git/hooks/post-commit'),
    };
    expect(attempts.inRepo.code).toBe(0);
    expect(readFileSync(path.join(repo.dir, 'src/new.txt'), 'utf8')).toBe('ok\n');
    expect(attempts.tmp).toEqual({ code: 0, output: 't\n' });
    expect(existsSync('/tmp/ac-box-probe')).toBe(false); // the box's /tmp is its own
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(path.join(repo.home, '.bashrc'))).toBe(false);
    expect(readFileSync(path.join(repo.dir, '.agent-collab', 'plan.md'), 'utf8')).toBe('PLAN\n');
    expect(existsSync(path.join(repo.dir, '.git/hooks/post-commit'))).toBe(false);
    expect(gitSnapshot(repo.dir)).toBe(before);
    // `outside` lies under /tmp here: the write lands in the box's private /tmp and is gone with it (checked above).
    for (const name of ['home', 'plan', 'planDelete', 'branch', 'commit', 'gitHook'] as const)
      expect(attempts[name].output, name).toMatch(/Read-only file system/);
  });

  it('holds when agent-collab runs as root: no remount, no write through /proc, no signal out, nothing left running', async () => {
    const repo = repoWithPlan();
    const outside = path.join(repo.home, 'escaped');
    const spec = { repo: repo.dir, workdir: '.agent-collab', home: repo.home, tmpDir: '/tmp' };
    const victim = spawn('sleep', ['30'], { stdio: 'ignore' });
    cleanups.push(() => victim.kill('SIGKILL'));
    const attempts = {
      remount: runBoxed(spec, `mount -o remount,rw / && echo x > ${outside}`),
      bind: runBoxed(spec, `mkdir -p mnt && mount --bind / mnt && echo x > mnt${outside}`),
      procRoot: runBoxed(spec, `for p in /proc/[0-9]*; do echo x > $p/root${outside}; done 2>/dev/null; true`),
      // Writes back the value it read: a box that lets the write through fails the test without changing the kernel.
      procSys: runBoxed(spec, 'v=$(cat /proc/sys/kernel/dmesg_restrict) && echo $v > /proc/sys/kernel/dmesg_restrict'),
      signal: runBoxed(spec, `kill -9 ${victim.pid}`),
      // A process the command leaves behind must not write the tree after the box (and agent-collab's check) ended.
      leftover: runBoxed(spec, 'setsid sh -c "sleep 1; echo late > late.txt" > /dev/null 2>&1 & echo started'),
    };
    await sleep(2_000);
    expect(existsSync(outside)).toBe(false);
    expect(attempts.procSys.code).not.toBe(0);
    expect(attempts.signal.code).not.toBe(0);
    expect(victim.exitCode).toBeNull();
    expect(victim.signalCode).toBeNull();
    expect(attempts.leftover.output).toBe('started\n');
    expect(existsSync(path.join(repo.dir, 'late.txt'))).toBe(false);
  });

  it('a linked worktree: its git dir and the main repo`s .git (elsewhere under /tmp) stay read-only', () => {
    const main = repoWithPlan();
    const wt = `${main.dir}-wt`;
    git(main.dir, 'worktree', 'add', '-q', '-b', 'feature', wt);
    cleanups.push(() => git(main.dir, 'worktree', 'remove', '--force', wt));
    mkdirs(path.join(wt, '.agent-collab'));
    const before = gitSnapshot(main.dir);
    const spec = { repo: wt, workdir: '.agent-collab', home: main.home, tmpDir: '/tmp' };
    const write = runBoxed(spec, 'echo ok > file.txt && git status --short');
    const commit = runBoxed(spec, 'git add -A && git commit -qm sneaky');
    const mainFile = runBoxed(spec, `echo x > ${main.dir}/README.md`);
    expect(write).toEqual({ code: 0, output: '?? file.txt\n' }); // git can read its dirs inside the box
    expect(commit.output).toMatch(/Read-only file system/);
    expect(mainFile.code).toBe(0); // the main repo lies under /tmp: the write lands in the box's private /tmp
    expect(readFileSync(path.join(main.dir, 'README.md'), 'utf8')).toBe('# test\n');
    expect(gitSnapshot(main.dir)).toBe(before);
    expect(git(wt, 'log', '--format=%s')).toBe('initial');
  });

  it('a read-only box (read-only turns) keeps the working tree unchanged too', () => {
    const repo = repoWithPlan();
    const r = runBoxed(
      { repo: repo.dir, workdir: '.agent-collab', home: repo.home, tmpDir: '/tmp', repoReadOnly: true },
      'echo x > new.txt',
    );
    expect(r.output).toMatch(/Read-only file system/);
    expect(existsSync(path.join(repo.dir, 'new.txt'))).toBe(false);
  });
});
