// `agent-collab run --worktree` on the built CLI with fake agents (issue 21 item 2): the run goes to DONE in a new
// worktree on `agent-collab/<slug>` with its `[Step N]` commits while the person's checkout stays byte for byte as it
// was; two runs started at the same moment both reach DONE on branches of their own; `ls` lists them; `clean`
// removes only finished, clean run worktrees and keeps every branch; a bad name is one line.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunWorktree } from '../../../src/adapters/git/run-worktree.js';
import { runClean } from '../../../src/modes/worktrees.js';
import { runCli } from '../../helpers/cli.js';
import { sink, tempRepoWithFakeScript } from '../../helpers/repo.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function repo() {
  const r = tempRepoWithFakeScript({ rules: [] }); // default answers: a two-step plan, approved, both steps done
  cleanups.push(r.cleanup, () => rmSync(`${r.dir}-agent-collab`, { recursive: true, force: true }));
  return r;
}

const git = (dir: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** Every file of the checkout (its `.git` dir's HEAD, index and refs included) with its bytes and mode. */
function bytesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      const rel = path.relative(dir, p);
      if (rel === '.agent-collab' || rel.startsWith(`.git${path.sep}objects`) || rel === `.git${path.sep}logs`)
        continue;
      // The repository's shared parts: other worktrees, their branches, and info/exclude, to which agent-collab adds
      // `/.agent-collab/` as it does in any repo it runs in (git has no exclude file per worktree).
      if ([`.git${path.sep}worktrees`, `.git${path.sep}refs`, `.git${path.sep}info`].includes(rel)) continue;
      if (e.isDirectory()) walk(p);
      else out[rel] = `${statSync(p).mode.toString(8)} ${readFileSync(p).toString('base64')}`;
    }
  };
  walk(dir);
  return out;
}

const RUN = ['--auto', '--auto-approve', '--json'];

describe('agent-collab run --worktree', () => {
  it('reaches DONE with [Step N] commits on agent-collab/<slug> and leaves the person’s checkout byte for byte as it was', async () => {
    const r = repo();
    writeFileSync(path.join(r.dir, 'README.md'), '# changed, not staged\n');
    writeFileSync(path.join(r.dir, 'staged.txt'), 'staged\n');
    git(r.dir, 'add', 'staged.txt');
    writeFileSync(path.join(r.dir, 'untracked.txt'), 'mine\n');
    const before = bytesOf(r.dir);
    const mainRefs = git(r.dir, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads/main');

    const run = await runCli(['run', '--worktree', '--goal', 'Add the greeting: hello!', ...RUN], {
      cwd: r.dir,
      home: r.home,
    }).done;

    expect(run.code, run.stderr).toBe(0);
    const wt = `${r.dir}-agent-collab/add-the-greeting-hello`;
    expect(run.stderr).toBe(`agent-collab: running in worktree ${wt} on branch agent-collab/add-the-greeting-hello\n`);
    expect(git(wt, 'log', '--format=%s', 'agent-collab/add-the-greeting-hello')).toBe(
      '[Step 2] add fake-step-2.txt\n[Step 1] add fake-step-1.txt\ninitial',
    );
    const state = JSON.parse(readFileSync(path.join(wt, '.agent-collab', 'state.json'), 'utf8')) as {
      phase: string;
      runId: string;
    };
    expect(state.phase).toBe('DONE');
    expect(readFileSync(path.join(wt, '.agent-collab', 'runs', state.runId, 'report.md'), 'utf8')).toContain(
      'status: "SUCCESS"',
    );
    expect(bytesOf(r.dir)).toEqual(before);
    expect(git(r.dir, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads/main')).toBe(mainRefs);
    expect(existsSync(path.join(r.dir, 'fake-step-1.txt'))).toBe(false);
  }, 60_000);

  it('two runs started at the same moment both reach DONE on their own branches; ls shows both; clean removes only the finished, clean ones and keeps the branches', async () => {
    const r = repo();
    const start = () => runCli(['run', '--worktree', '--goal', 'Same goal', ...RUN], { cwd: r.dir, home: r.home });
    const [a, b] = await Promise.all([start().done, start().done]);
    expect([a.code, b.code], a.stderr + b.stderr).toEqual([0, 0]);
    const branches = git(r.dir, 'branch', '--list', 'agent-collab/*', '--format=%(refname:short)').split('\n');
    expect(branches.sort()).toEqual(['agent-collab/same-goal', 'agent-collab/same-goal-2']);
    for (const branch of branches)
      expect(git(r.dir, 'log', '--format=%s', `main..${branch}`)).toBe(
        '[Step 2] add fake-step-2.txt\n[Step 1] add fake-step-1.txt',
      );

    const ls = await runCli(['ls', '--json'], { cwd: r.dir, home: r.home }).done;
    expect(ls.code).toBe(0);
    const rows = ls.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const runsDir = `${r.dir}-agent-collab`;
    expect(rows).toEqual([
      expect.objectContaining({ name: '(main)', branch: 'main', path: r.dir, phase: null, running: false }),
      ...['same-goal', 'same-goal-2'].map((name) =>
        expect.objectContaining({
          name,
          branch: `agent-collab/${name}`,
          path: path.join(runsDir, name),
          phase: 'DONE',
          running: false,
          steps_done: 2,
          steps_total: 2,
          cost_usd: 0,
        }),
      ),
    ]);
    const table = await runCli(['ls'], { cwd: r.dir, home: r.home }).done;
    expect(table.stdout).toMatch(/^same-goal-2 +agent-collab\/same-goal-2 +DONE +2\/2 +\$0\.00 +\S+same-goal-2$/m);

    // One run worktree with a change of the person's, one not run yet: both stay, with the reason.
    writeFileSync(path.join(runsDir, 'same-goal-2', 'notes.txt'), 'unsaved\n');
    const fresh = await createRunWorktree({ repoRoot: r.dir, name: 'not-run' });
    const asked = sink();
    expect(await runClean({ cwd: r.dir, yes: false, stdout: asked, ask: null })).toBe(3);
    expect(readdirSync(runsDir).sort()).toEqual(['not-run', 'same-goal', 'same-goal-2']); // nothing removed unasked
    const cleaned = await runCli(['clean', '--yes'], { cwd: r.dir, home: r.home }).done;
    expect(cleaned.code, cleaned.stderr).toBe(0);
    expect(cleaned.stdout).toContain(
      `keeping same-goal-2 (${path.join(runsDir, 'same-goal-2')}): it has uncommitted changes; commit or remove them first\n`,
    );
    expect(cleaned.stdout).toContain(`keeping not-run (${fresh.path}): no finished run there\n`);
    expect(readdirSync(runsDir).sort()).toEqual(['not-run', 'same-goal-2']);
    expect(git(r.dir, 'worktree', 'list', '--porcelain')).not.toContain(path.join(runsDir, 'same-goal\n'));
    expect(git(r.dir, 'log', '--format=%s', 'main..agent-collab/same-goal')).toBe(
      '[Step 2] add fake-step-2.txt\n[Step 1] add fake-step-1.txt',
    );
    const kept = path.join(r.dir, '.agent-collab', 'worktree-runs', 'same-goal');
    const [runId] = readdirSync(kept);
    expect(readFileSync(path.join(kept, runId!, 'report.md'), 'utf8')).toContain('status: "SUCCESS"');
  }, 120_000);

  it('ls shows a run under way as running, read without its lock; clean keeps its worktree, saying why', async () => {
    const r = tempRepoWithFakeScript({ rules: [{ when: { kind: 'review' }, do: { hang: true } }] });
    cleanups.push(r.cleanup, () => rmSync(`${r.dir}-agent-collab`, { recursive: true, force: true }));
    const run = runCli(['run', '--worktree', 'live', '--goal', 'g', ...RUN], { cwd: r.dir, home: r.home });
    await run.waitFor((e) => e.event === 'agent' && e.role === 'reviewer' && e.type === 'session');
    const wt = `${r.dir}-agent-collab/live`;
    const ls = await runCli(['ls', '--json'], { cwd: r.dir, home: r.home }).done;
    expect(JSON.parse(ls.stdout.trim().split('\n')[1]!)).toMatchObject({
      name: 'live',
      path: wt,
      phase: 'REVIEW',
      running: true,
    });
    const cleaned = await runCli(['clean', '--yes'], { cwd: r.dir, home: r.home }).done;
    expect(cleaned.stdout).toBe(
      `keeping live (${wt}): a run is under way there\nnothing to clean: no finished run worktree\n`,
    );
    run.child.kill('SIGINT');
    expect((await run.done).code).toBe(130); // its lock was never taken from it: it stops and saves as usual
  }, 60_000);

  it('a bad worktree name is one line saying what a name may be, and nothing is created', async () => {
    const r = repo();
    const bad = await runCli(['run', '--worktree', 'no/slashes', '--goal', 'g', ...RUN], { cwd: r.dir, home: r.home })
      .done;
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'agent-collab: worktree name "no/slashes" is not usable: use letters, digits, ".", "_" or "-" (up to 60, starting with a letter or digit), e.g. --worktree fix-login\n',
    );
    expect(existsSync(`${r.dir}-agent-collab`)).toBe(false);
    expect(git(r.dir, 'branch', '--list', 'agent-collab/*')).toBe('');
  });
});
