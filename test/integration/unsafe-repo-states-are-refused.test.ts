// A run never starts inside a rebase, merge, cherry-pick, revert or bisect, nor on a detached HEAD (unless
// --allow-detached), nor in a repository without commits: one line, exit 2, before any agent runs. A state that
// appears during the run holds the step's commit for the person.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../src/adapters/fake/fake-agent.js';
import type { FakeScript } from '../../src/adapters/fake/script.js';
import { UserError } from '../../src/core/errors.js';
import type { HeadlessOptions } from '../../src/modes/headless.js';
import { runAutoHeadless } from '../helpers/headless-run.js';
import { gitLog, tempRepo } from '../helpers/repo.js';

const approve: FakeScript = { rules: [{ do: { verdict: 'APPROVED', text: '## Comments\n1. Fine.' } }] };

function planner(step: Record<string, string> = { 'a.txt': 'a\n' }): FakeAgent {
  return new FakeAgent('planner', {
    rules: [
      { when: { kind: 'write_plan' }, do: { text: '## Steps\n1. [ ] Add a.txt\n' } },
      { when: { step: 1 }, do: { writeFiles: step, text: 'Summary: add a.txt' } },
    ],
  });
}

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

function repo(): {
  dir: string;
  home: string;
  git: (...args: string[]) => string;
  gitMayFail: (...a: string[]) => void;
} {
  const r = tempRepo();
  cleanups.push(r.cleanup);
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'core.editor=true', ...args], { cwd: r.dir, encoding: 'utf8', stdio: 'pipe' });
  const gitMayFail = (...args: string[]): void => {
    try {
      git(...args);
    } catch {
      // a conflict stops the operation half-way: that is the state under test
    }
  };
  return { ...r, git, gitMayFail };
}

/** main and other both change README.md: merging, rebasing or cherry-picking one onto the other conflicts. */
function conflicting(r: ReturnType<typeof repo>): void {
  r.git('checkout', '-q', '-b', 'other');
  writeFileSync(path.join(r.dir, 'README.md'), 'other\n');
  r.git('commit', '-q', '-am', 'other');
  r.git('checkout', '-q', 'main');
  writeFileSync(path.join(r.dir, 'README.md'), 'main\n');
  r.git('commit', '-q', '-am', 'main');
}

function run(
  dir: string,
  home: string,
  agents: { planner: FakeAgent; reviewer: FakeAgent },
  extra: Partial<HeadlessOptions> = {},
) {
  return runAutoHeadless({ dir, home }, agents, { goal: 'add a', ...extra });
}

async function refusal(dir: string, home: string, extra: Partial<HeadlessOptions> = {}) {
  const agents = { planner: planner(), reviewer: new FakeAgent('reviewer', approve) };
  const err = await run(dir, home, agents, extra).then(
    () => null,
    (e: unknown) => e,
  );
  return { err: err as UserError | null, agentCalls: agents.planner.turns.length + agents.reviewer.turns.length };
}

describe('unsafe repository states are refused before any agent runs', () => {
  const cases: Array<[string, (r: ReturnType<typeof repo>) => void, string]> = [
    ['a merge', (r) => (conflicting(r), r.gitMayFail('merge', 'other')), 'a merge is in progress'],
    [
      'a rebase',
      (r) => (conflicting(r), r.git('checkout', '-q', 'other'), r.gitMayFail('rebase', 'main')),
      'a rebase is in progress',
    ],
    ['a cherry-pick', (r) => (conflicting(r), r.gitMayFail('cherry-pick', 'other')), 'a cherry-pick is in progress'],
    ['a revert', (r) => (conflicting(r), r.gitMayFail('revert', '--no-edit', 'HEAD~1')), 'a revert is in progress'],
    ['a bisect', (r) => r.git('bisect', 'start'), 'a bisect is in progress'],
    ['a detached HEAD', (r) => r.git('checkout', '-q', '--detach'), 'HEAD is detached'],
  ];
  for (const [name, make, line] of cases) {
    it(`${name}: exit 2 with one line saying what to do; no agent was called and nothing committed`, async () => {
      const r = repo();
      make(r);
      const head = r.git('rev-parse', 'HEAD');
      const { err, agentCalls } = await refusal(r.dir, r.home);
      expect(err).toBeInstanceOf(UserError);
      expect(err?.exitCode).toBe(2);
      expect(err?.message).toContain(line);
      expect(err?.message).toMatch(/then run agent-collab again/);
      expect(err?.message).not.toContain('\n');
      expect(agentCalls).toBe(0);
      expect(r.git('rev-parse', 'HEAD')).toBe(head);
    });
  }

  it('a repository without commits: exit 2 with a hint to make a first commit; no agent was called', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ac-nocommit-'));
    const home = mkdtempSync(path.join(os.tmpdir(), 'ac-home-'));
    cleanups.push(() => {
      rmSync(dir, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    });
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
    const { err, agentCalls } = await refusal(dir, home);
    expect(err?.exitCode).toBe(2);
    expect(err?.message).toContain('git commit --allow-empty');
    expect(agentCalls).toBe(0);
  });

  it('a detached HEAD with --allow-detached: the run goes on and commits the step onto the detached HEAD', async () => {
    const r = repo();
    r.git('checkout', '-q', '--detach');
    const agents = { planner: planner(), reviewer: new FakeAgent('reviewer', approve) };
    const { code } = await run(r.dir, r.home, agents, { allowDetached: true });
    expect(code).toBe(0);
    expect(gitLog(r.dir)[0]).toBe('[Step 1] add a.txt');
    expect(() => r.git('symbolic-ref', '-q', 'HEAD')).toThrow();
    expect(r.git('log', '-1', '--format=%s', 'main').trim()).toBe('initial');
  });
});

describe('a state that appears during the run', () => {
  it('holds the step: nothing is committed into the merge, and the hint says how to go on', async () => {
    const r = repo();
    const head = r.git('rev-parse', 'HEAD').trim();
    // The person starts a merge while the step runs (simulated by the agent's turn writing git's merge marker).
    const agents = {
      planner: planner({ 'a.txt': 'a\n', '.git/MERGE_HEAD': `${head}\n` }),
      reviewer: new FakeAgent('reviewer', approve),
    };
    const { code, events } = await run(r.dir, r.home, agents);
    expect(code).toBe(3);
    const held = events.find((e) => e.event === 'needs_human');
    expect(held).toMatchObject({ kind: 'commit_failed', step: 1 });
    expect(String(held?.message)).toContain('a merge is in progress');
    expect(r.git('rev-parse', 'HEAD').trim()).toBe(head);
    expect(gitLog(r.dir)).toEqual(['initial']);
  });
});
