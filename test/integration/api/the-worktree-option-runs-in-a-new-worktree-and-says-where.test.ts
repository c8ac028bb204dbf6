// run({ worktree }) is `agent-collab run --worktree [name]`: the run goes in a new worktree on a new branch
// `agent-collab/<name>`, its step commits land there, the person's checkout (HEAD, branch, files) stays as it was,
// and the result says where the worktree and branch are. Asked wrongly, it rejects with one line and makes nothing.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run, UserError } from '../../../src/index.js';
import { apiRepo, type ApiRepo } from './api-helpers.js';

const repos: ApiRepo[] = [];
afterEach(() =>
  repos.splice(0).forEach((r) => {
    r.cleanup();
    rmSync(`${r.dir}-agent-collab`, { recursive: true, force: true });
  }),
);

const SCRIPT = { rules: [{ when: { kind: 'execute_step', step: 1 }, do: { writeFiles: { 'src/one.txt': 'one\n' } } }] };
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

function repo(): ApiRepo {
  const r = apiRepo(SCRIPT);
  repos.push(r);
  return r;
}

describe('run({ worktree })', () => {
  it('runs in a new worktree on its own branch, named or after the goal, and leaves the checkout untouched', async () => {
    const named = repo();
    const byGoal = repo();
    const before = [named, byGoal].map((r) => git(r.dir, 'rev-parse', 'HEAD'));
    const common = { goal: 'add one file', auto: true, autoApprove: true } as const;
    const [a, b] = await Promise.all([
      run({ ...common, cwd: named.dir, config: named.config, worktree: 'feature-x' }),
      run({ ...common, cwd: byGoal.dir, config: byGoal.config, worktree: true }),
    ]);

    expect([a.exitCode, b.exitCode]).toEqual([0, 0]);
    expect(a.worktree).toEqual({
      path: path.join(`${realpathSync(named.dir)}-agent-collab`, 'feature-x'),
      branch: 'agent-collab/feature-x',
    });
    expect(b.worktree?.branch).toBe('agent-collab/add-one-file');
    for (const [r, result, head] of [
      [named, a, before[0]],
      [byGoal, b, before[1]],
    ] as const) {
      const wt = result.worktree!;
      // The step's commit is on the run's branch, checked out in the worktree with the file it wrote.
      expect(git(r.dir, 'log', '--format=%s', `${head}..${wt.branch}`)).toMatch(/^\[Step 1\] /m);
      expect(git(wt.path, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe(wt.branch);
      expect(readFileSync(path.join(wt.path, 'src', 'one.txt'), 'utf8')).toBe('one\n');
      expect(result.report?.startsWith(wt.path)).toBe(true);
      // The person's checkout: same HEAD and branch, no new file, nothing changed.
      expect(git(r.dir, 'rev-parse', 'HEAD')).toBe(head);
      expect(git(r.dir, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
      expect(existsSync(path.join(r.dir, 'src', 'one.txt'))).toBe(false);
      expect(git(r.dir, 'status', '--porcelain')).toBe('');
    }
  });

  it('rejects a bad name, a resume and a non-name with one line, and makes no worktree', async () => {
    const r = repo();
    for (const [worktree, resume, line] of [
      ['../out', false, /name/],
      [true, true, /to continue a run there, use run\(\{ cwd: <its path>, resume: true \}\)/],
      [42, false, /^worktree must be true \(named after the goal\) or a name/],
    ] as const) {
      const err: unknown = await run({
        cwd: r.dir,
        goal: 'g',
        config: r.config,
        resume,
        worktree: worktree as unknown as string,
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UserError);
      expect((err as UserError).message).toMatch(line);
      expect((err as UserError).message).not.toContain('\n');
    }
    expect(existsSync(`${r.dir}-agent-collab`)).toBe(false);
    expect(git(r.dir, 'branch', '--list', 'agent-collab/*')).toBe('');
  });
});
