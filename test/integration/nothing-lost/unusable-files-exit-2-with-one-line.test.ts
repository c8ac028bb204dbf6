// Issue 18, items 9 and 15: bad paths and unusable `.agent-collab/` files stop the built CLI with exit 2 and one
// line that names the path and what to do — never "internal error", never a stack trace — and the person's files
// stay as they were.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, runCli, runToEnd } from '../../helpers/cli.js';
import { tempRepoWithFakeScript } from '../../helpers/repo.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const APPROVE = { rules: [{ when: { kind: 'review' }, do: { verdict: 'APPROVED' } }] };

function repo(extraConfig = '') {
  const r = tempRepoWithFakeScript(APPROVE);
  cleanups.push(r.cleanup);
  const config = path.join(r.dir, '.agent-collab', 'config.toml');
  writeFileSync(config, `${readFileSync(config, 'utf8')}[safety]\nsandbox = "off"\n${extraConfig}`);
  return r;
}

/** A directory next to the repo (outside it), removed afterwards. */
function outsideDir(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), 'ac-outside-'));
  cleanups.push(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

/** Exit 2, exactly one line on stderr that says `says`, no stack trace, no "internal error". */
function expectOneLineRefusal(r: { code: number | null; stderr: string }, says: RegExp): void {
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stderr).not.toContain('internal error');
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(/^agent-collab: /);
  expect(r.stderr).toMatch(says);
  expect(r.code).toBe(2);
}

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[path.relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

describe('[paths] must stay inside the repo', () => {
  it('a workdir outside the repo is a config error naming paths.workdir, and nothing is written there', async () => {
    const out = outsideDir();
    const target = path.join(out, 'collab');
    const r = repo(`[paths]\nworkdir = ${JSON.stringify(target)}\n`);
    const run = await runCli(['run', '--goal', 'g', '--auto'], { cwd: r.dir, home: r.home }).done;
    expectOneLineRefusal(run, /config error: paths\.workdir = .* outside /);
    expect(existsSync(target)).toBe(false);
  });

  it('a plan file name leading out of the work dir is refused naming paths.plan; the file outside is untouched', async () => {
    const r = repo('[paths]\nplan = "../../README"\n');
    const outsideReadme = path.resolve(r.dir, '..', 'README');
    const existed = existsSync(outsideReadme);
    const run = await runCli(['run', '--goal', 'g', '--auto'], { cwd: r.dir, home: r.home }).done;
    expectOneLineRefusal(run, /paths\.plan = "\.\.\/\.\.\/README"/);
    expect(existsSync(outsideReadme)).toBe(existed);
    expect(readFileSync(path.join(r.dir, 'README.md'), 'utf8')).toBe('# test\n');
  });

  it('a workdir inside the repo that is a symbolic link to a directory outside is refused; the outside stays empty', async () => {
    const out = outsideDir();
    const r = repo('[paths]\nworkdir = "collab"\n');
    symlinkSync(out, path.join(r.dir, 'collab'));
    const run = await runCli(['run', '--goal', 'g', '--auto'], { cwd: r.dir, home: r.home }).done;
    expectOneLineRefusal(run, /paths\.workdir = "collab" leads to .*outside/);
    expect(readdirSync(out)).toEqual([]);
  });

  it('a plan.md that is a link to a file outside is refused; that file keeps its content', async () => {
    const out = outsideDir();
    const victim = path.join(out, 'notes.md');
    writeFileSync(victim, 'mine\n');
    const r = repo();
    symlinkSync(victim, path.join(r.dir, '.agent-collab', 'plan.md'));
    const run = await runCli(['run', '--goal', 'g', '--auto'], { cwd: r.dir, home: r.home }).done;
    expectOneLineRefusal(run, /paths\.plan = "plan\.md" leads to .*notes\.md/);
    expect(readFileSync(victim, 'utf8')).toBe('mine\n');
  });
});

describe('unusable files and directories are bad input (exit 2), said in one line', () => {
  it('-C with a directory that does not exist says so, not that git is missing', async () => {
    const r = repo();
    const run = await runCli(['run', '-C', path.join(r.dir, 'nope'), '--goal', 'g'], { cwd: r.dir, home: r.home }).done;
    expectOneLineRefusal(run, /directory .*nope does not exist/);
  });

  it('a read-only .agent-collab/ (a read-only mount) names the path and the file system; config.toml is kept', async () => {
    const r = repo();
    const work = path.join(r.dir, '.agent-collab');
    const before = snapshot(work);
    const run = await runToEnd(
      'bwrap',
      ['--dev-bind', '/', '/', '--ro-bind', work, work, process.execPath, CLI, 'run', '--goal', 'g'],
      {
        cwd: r.dir,
        env: { ...process.env, HOME: r.home, XDG_CONFIG_HOME: path.join(r.home, '.config'), NO_COLOR: '1' },
      },
    );
    expectOneLineRefusal(run, /\.agent-collab\/.* is on a read-only file system/);
    expect(snapshot(work)).toEqual(before);
  });

  it('an unwritable .agent-collab/ (permissions, no root powers) names the path; never "internal error"', async () => {
    const r = repo();
    const work = path.join(r.dir, '.agent-collab');
    const before = snapshot(work);
    execFileSync('chmod', ['555', work]);
    cleanups.unshift(() => execFileSync('chmod', ['755', work]));
    // Root ignores permissions; in its own user namespace without capabilities the CLI is bound by them.
    const box = ['--unshare-user', '--uid', '1000', '--gid', '1000', '--cap-drop', 'ALL', '--dev-bind', '/', '/'];
    const run = await runToEnd('bwrap', [...box, process.execPath, CLI, 'run', '--goal', 'g', '--json'], {
      cwd: r.dir,
      env: { ...process.env, HOME: r.home, XDG_CONFIG_HOME: path.join(r.home, '.config'), NO_COLOR: '1' },
    });
    expectOneLineRefusal(run, /may not write or read .*\.agent-collab\/.*; fix its permissions .*EACCES/);
    expect(snapshot(work)).toEqual(before);
  });

  it('.agent-collab that is a file says to move it aside; the file is kept', async () => {
    const r = repo();
    const work = path.join(r.dir, '.agent-collab');
    rmSync(work, { recursive: true });
    writeFileSync(work, 'my notes\n');
    const run = await runCli(['run', '--goal', 'g', '--json'], { cwd: r.dir, home: r.home }).done;
    expectOneLineRefusal(
      run,
      /a part of .*\.agent-collab\/config\.toml is a file where agent-collab expects a directory; move it aside/,
    );
    expect(readFileSync(work, 'utf8')).toBe('my notes\n');
  });

  it('state.json that is a directory names it and says to move it aside; the directory and its content are kept', async () => {
    const r = repo();
    const state = path.join(r.dir, '.agent-collab', 'state.json');
    mkdirSync(state);
    writeFileSync(path.join(state, 'keep.txt'), 'kept\n');
    const run = await runCli(['run', '--goal', 'g', '--auto'], { cwd: r.dir, home: r.home }).done;
    expectOneLineRefusal(run, /state\.json is a directory where agent-collab expects a file; move it aside/);
    expect(readFileSync(path.join(state, 'keep.txt'), 'utf8')).toBe('kept\n');
  });

  it('a corrupt state.json with --resume: one message, exit 2, the broken file kept aside', async () => {
    const r = repo();
    const state = path.join(r.dir, '.agent-collab', 'state.json');
    writeFileSync(state, '{not json');
    const run = await runCli(['run', '--resume', '--json'], { cwd: r.dir, home: r.home }).done;
    expectOneLineRefusal(run, /state\.json is unreadable \(invalid JSON.*moved to .*: run without --resume/);
    expect(run.stderr).not.toContain('a new run starts');
    const aside = readdirSync(path.dirname(state)).filter((n) => n.startsWith('state.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(path.join(path.dirname(state), aside[0]!), 'utf8')).toBe('{not json');
  });

  it('plan.md with broken frontmatter at a resume is exit 2 naming the file; plan.md is left as it is', async () => {
    const r = repo();
    const first = await runCli(['run', '--goal', 'g', '--json'], { cwd: r.dir, home: r.home }).done;
    expect(first.code).toBe(3); // manual mode: the plan is written, the review waits for a go
    const plan = path.join(r.dir, '.agent-collab', 'plan.md');
    const broken = '---\nstatus: [unclosed\n---\n# my plan\n';
    writeFileSync(plan, broken);
    const run = await runCli(['run', '--resume', '--json'], { cwd: r.dir, home: r.home }).done;
    expectOneLineRefusal(run, /plan\.md has invalid frontmatter .*; fix or delete the --- block/);
    expect(readFileSync(plan, 'utf8')).toBe(broken);
    const log = execFileSync('git', ['log', '--format=%s'], { cwd: r.dir, encoding: 'utf8' });
    expect(log.trim()).toBe('initial');
  });

  it('.agent-collab/ made read-only during the run: the exit code is the one the summary names, no internal error', async () => {
    // Root ignores permissions; in its own user namespace without capabilities the CLI is bound by them.
    const r = tempRepoWithFakeScript({
      rules: [{ when: { kind: 'review' }, do: { run: 'chmod -R a-w .agent-collab', verdict: 'APPROVED' } }],
    });
    cleanups.push(r.cleanup);
    const work = path.join(r.dir, '.agent-collab');
    cleanups.unshift(() => execFileSync('chmod', ['-R', 'u+w', work]));
    writeFileSync(
      path.join(work, 'config.toml'),
      `${readFileSync(path.join(work, 'config.toml'), 'utf8')}[safety]\nsandbox = "off"\n`,
    );
    const box = ['--unshare-user', '--uid', '1000', '--gid', '1000', '--cap-drop', 'ALL', '--dev-bind', '/', '/'];
    const run = await runToEnd('bwrap', [...box, process.execPath, CLI, 'run', '--goal', 'g', '--auto', '--json'], {
      cwd: r.dir,
      env: { ...process.env, HOME: r.home, XDG_CONFIG_HOME: path.join(r.home, '.config'), NO_COLOR: '1' },
    });
    const events = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const done = events.find((e) => e.event === 'done');
    expect(done?.exit_code).toBe(4); // "the state could not be saved"
    expect(run.code).toBe(done?.exit_code);
    expect(run.stderr).not.toContain('internal error');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(events.some((e) => e.event === 'error' && /EACCES/.test(String(e.message)))).toBe(true);
    // What was saved before the directory went read-only is intact.
    const state = JSON.parse(readFileSync(path.join(work, 'state.json'), 'utf8')) as { phase: string };
    expect(state.phase).toBe('REVIEW');
    expect(readFileSync(path.join(work, 'plan.md'), 'utf8')).toContain('## Steps');
  });
});
