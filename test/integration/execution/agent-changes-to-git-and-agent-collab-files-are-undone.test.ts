// A write turn must leave HEAD, the branch, every ref, the worktrees, the stash and agent-collab's files as they
// were. A fake executor really runs the git commands a hostile or confused agent would; whatever it did is undone,
// the step is never committed, the agent's edits of the repo's files stay in the working tree, and the headless run
// stops for the person (exit 3) with an event naming what changed. Real git, real files, the session's own wiring.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runHeadless, type HeadlessOptions } from '../../../src/modes/headless.js';
import { parseDecision } from '../../../src/modes/decisions.js';
import { gitLog, sink, tempRepo } from '../../helpers/repo.js';

type Repo = ReturnType<typeof tempRepo>;

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

const PLAN = '# Task: t\n\n## Steps\n1. [ ] Add a.txt\n';

/**
 * A repo whose planner (the fake agent) runs `commands` in step 1's first attempt and writes a.txt every time;
 * `testCommand`: the project's test command (none by default: the step is committed untested).
 */
function repoWhereTheAgentRuns(commands: string[] | ((repo: Repo) => string[]), testCommand?: string): Repo {
  const repo = tempRepo();
  if (typeof commands === 'function') commands = commands(repo);
  const script = {
    rules: [
      { when: { kind: 'write_plan' }, do: { text: PLAN } },
      { when: { kind: 'review' }, do: { verdict: 'APPROVED', text: '## Comments\n1. Fine.' } },
      {
        when: { kind: 'execute_step', step: 1 },
        times: 1,
        do: { run: commands, writeFiles: { 'a.txt': 'agent edit\n' }, text: 'Summary: add a.txt' },
      },
      {
        when: { kind: 'execute_step', step: 1 },
        do: { writeFiles: { 'a.txt': 'agent edit\n' }, text: 'Summary: add a.txt' },
      },
    ],
  };
  const file = path.join(repo.home, 'script.json');
  writeFileSync(file, JSON.stringify(script));
  mkdirSync(path.join(repo.dir, '.agent-collab'), { recursive: true });
  // Confinement off: these tests prove the second layer on its own (the fake agent is never boxed, and the test
  // command would be: with the box its `git checkout` could not touch .git at all).
  writeFileSync(
    path.join(repo.dir, '.agent-collab', 'config.toml'),
    `[roles]\nplanner = "fake"\nreviewer = "fake"\n[fake]\nscript = ${JSON.stringify(file)}\n[safety]\nsandbox = "off"\n[test]\nfallback_to_agent = false\n${testCommand ? `default_command = ${JSON.stringify(testCommand)}\n` : ''}`,
  );
  return repo;
}

function git(repo: Repo, ...args: string[]): string {
  return gitRaw(repo, ...args).trim();
}

function gitRaw(repo: Repo, ...args: string[]): string {
  return execFileSync('git', args, { cwd: repo.dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

async function run(repo: Repo, extra: Partial<HeadlessOptions> = {}) {
  const out = sink();
  const code = await runHeadless({
    cwd: repo.dir,
    homeDir: repo.home,
    goal: 'add a.txt',
    auto: true,
    autoApprove: true,
    json: true,
    resume: 'ask',
    // The policy would hold these for the person; they are allowed so that they really run.
    allowCmd: ['git', 'echo', 'mkdir'],
    stdout: out,
    stderr: sink(),
    ...extra,
  });
  return { code, events: out.lines() };
}

function needsHuman(events: Array<Record<string, unknown>>): Record<string, unknown> {
  const e = events.find((x) => x.event === 'needs_human');
  if (!e) throw new Error(`no needs_human event in ${JSON.stringify(events).slice(-2000)}`);
  return e;
}

/** git's view that nothing of the step was committed and the branch is back where it was. */
function expectBackOnMain(repo: Repo, head: string): void {
  expect(git(repo, 'symbolic-ref', 'HEAD')).toBe('refs/heads/main');
  expect(git(repo, 'rev-parse', 'HEAD')).toBe(head);
  expect(gitLog(repo.dir).some((s) => s.startsWith('[Step'))).toBe(false);
}

const readRepo = (repo: Repo, file: string): string => readFileSync(path.join(repo.dir, file), 'utf8');

describe('what an agent changed that it must not is undone, and the step is not committed', () => {
  it('a branch checked out and committed to: HEAD back on main, the branch gone, the agent’s files kept', async () => {
    const repo = repoWhereTheAgentRuns([
      'git checkout -q -b sneaky',
      'echo b > b.txt && git add b.txt && git commit -q -m sneaky',
    ]);
    cleanup = repo.cleanup;
    const head = git(repo, 'rev-parse', 'HEAD');
    const { code, events } = await run(repo);
    expect(code).toBe(3);
    const asked = needsHuman(events);
    expect(asked).toMatchObject({ kind: 'forbidden_change', step: 1 });
    expect(asked.changes).toEqual(
      expect.arrayContaining([
        "branch 'sneaky' checked out (was on branch 'main')",
        expect.stringMatching(/^HEAD moved from [0-9a-f]{7} to [0-9a-f]{7}$/),
        "branch 'sneaky' created",
      ]),
    );
    expect(String(asked.hint)).toMatch(/--decide retry \| skip \| rollback \| stop/);
    expectBackOnMain(repo, head);
    expect(git(repo, 'branch', '--list', 'sneaky')).toBe('');
    // The agent's work is still in the working tree, unstaged: nothing of it was lost.
    expect(readRepo(repo, 'a.txt')).toBe('agent edit\n');
    expect(readRepo(repo, 'b.txt')).toBe('b\n');
    expect(git(repo, 'status', '--porcelain')).toBe('?? a.txt\n?? b.txt'.trim());
  });

  it('history reset: the branch is put back, the files the reset took away show as the step’s changes', async () => {
    const repo = repoWhereTheAgentRuns(['git reset -q --hard HEAD~1']);
    cleanup = repo.cleanup;
    writeFileSync(path.join(repo.dir, 'second.txt'), 'second\n');
    git(repo, 'add', 'second.txt');
    git(repo, 'commit', '-q', '-m', 'second');
    const head = git(repo, 'rev-parse', 'HEAD');
    const { code, events } = await run(repo);
    expect(code).toBe(3);
    expect(needsHuman(events).changes).toEqual([expect.stringMatching(/^HEAD moved from /)]);
    expectBackOnMain(repo, head);
    expect(gitLog(repo.dir)).toEqual(['second', 'initial']);
    expect(readRepo(repo, 'a.txt')).toBe('agent edit\n');
    // The reset deleted second.txt from the working tree: that is visible to the person, not hidden in a commit.
    expect(gitRaw(repo, 'status', '--porcelain')).toBe(' D second.txt\n?? a.txt\n');
  });

  it('a tag and a worktree the agent made are removed', async () => {
    const wtOf = (r: Repo): string => path.join(r.home, 'wt');
    const repo = repoWhereTheAgentRuns((r) => ['git tag sneaky-tag', `git worktree add -q ${wtOf(r)} -b wt-branch`]);
    cleanup = repo.cleanup;
    const wt = wtOf(repo);
    const head = git(repo, 'rev-parse', 'HEAD');
    const { code, events } = await run(repo);
    expect(code).toBe(3);
    expect(needsHuman(events).changes).toEqual(
      expect.arrayContaining(["tag 'sneaky-tag' created", "branch 'wt-branch' created", `worktree added at ${wt}`]),
    );
    expectBackOnMain(repo, head);
    expect(git(repo, 'tag')).toBe('');
    expect(git(repo, 'branch', '--list', 'wt-branch')).toBe('');
    expect(git(repo, 'worktree', 'list', '--porcelain')).not.toContain(wt);
    expect(existsSync(wt)).toBe(false);
  });

  it('the agent’s stash of the work is popped back; the person’s own stash entry stays', async () => {
    const repo = repoWhereTheAgentRuns(['echo b > b.txt', 'git stash push -q -u -m agent']);
    cleanup = repo.cleanup;
    writeFileSync(path.join(repo.dir, 'README.md'), '# mine, stashed\n');
    git(repo, 'stash', 'push', '-q', '-m', 'mine');
    const mine = git(repo, 'rev-parse', 'refs/stash');
    const { code, events } = await run(repo);
    expect(code).toBe(3);
    expect(needsHuman(events).changes).toEqual(['1 stash entry added']);
    expect(git(repo, 'stash', 'list', '--format=%H')).toBe(mine);
    expect(readRepo(repo, 'b.txt')).toBe('b\n');
    expect(readRepo(repo, 'a.txt')).toBe('agent edit\n');
  });

  it('the person’s stash entry the agent dropped comes back', async () => {
    const repo = repoWhereTheAgentRuns(['git stash drop -q']);
    cleanup = repo.cleanup;
    writeFileSync(path.join(repo.dir, 'README.md'), '# mine, stashed\n');
    git(repo, 'stash', 'push', '-q', '-m', 'mine');
    const mine = git(repo, 'rev-parse', 'refs/stash');
    const { code, events } = await run(repo);
    expect(code).toBe(3);
    expect(needsHuman(events).changes).toEqual(['1 stash entry dropped']);
    expect(git(repo, 'stash', 'list', '--format=%H %gs')).toBe(`${mine} On main: mine`);
  });

  it('agent-collab’s files: plan.md and a planted prompt are put back, the changed versions kept in backups/', async () => {
    const repo = repoWhereTheAgentRuns([
      'echo hacked > .agent-collab/plan.md',
      'mkdir -p .agent-collab/prompts && echo evil > .agent-collab/prompts/05_execute_step.md',
    ]);
    cleanup = repo.cleanup;
    const { code, events } = await run(repo);
    expect(code).toBe(3);
    expect(needsHuman(events).changes).toEqual([
      '.agent-collab/plan.md changed',
      '.agent-collab/prompts/05_execute_step.md created',
    ]);
    const plan = readFileSync(path.join(repo.dir, '.agent-collab', 'plan.md'), 'utf8');
    expect(plan).toContain('1. [ ] Add a.txt');
    expect(existsSync(path.join(repo.dir, '.agent-collab', 'prompts', '05_execute_step.md'))).toBe(false);
    const backups = readdirSync(path.join(repo.dir, '.agent-collab', 'backups'));
    const kept = backups.map((f) => readFileSync(path.join(repo.dir, '.agent-collab', 'backups', f), 'utf8')).sort();
    expect(kept).toEqual(['evil\n', 'hacked\n']);
    expect(gitLog(repo.dir)).toEqual(['initial']);
  });

  it('a planted git hook and a git config that would run a command are removed before agent-collab runs git', async () => {
    const repo = repoWhereTheAgentRuns([
      'printf "#!/bin/sh\\ntouch PWNED\\n" > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit',
      'git config core.fsmonitor "touch FSMON"',
    ]);
    cleanup = repo.cleanup;
    const configBefore = readFileSync(path.join(repo.dir, '.git', 'config'), 'utf8');
    const { code, events } = await run(repo, { allowCmd: ['git', 'printf', 'chmod'] });
    expect(code).toBe(3);
    expect(needsHuman(events).changes).toEqual(['.git/config changed', '.git/hooks/pre-commit created']);
    expect(existsSync(path.join(repo.dir, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(readFileSync(path.join(repo.dir, '.git', 'config'), 'utf8')).toBe(configBefore);
    expect(existsSync(path.join(repo.dir, 'PWNED'))).toBe(false);
    expect(existsSync(path.join(repo.dir, 'FSMON'))).toBe(false);
    expect(gitLog(repo.dir)).toEqual(['initial']);
  });

  it('a change made by the tests (a script the agent wrote) is caught after the test run', async () => {
    const repo = repoWhereTheAgentRuns([], 'sh check.sh');
    cleanup = repo.cleanup;
    writeFileSync(path.join(repo.dir, 'check.sh'), 'git checkout -q -b from-tests\n');
    const head = git(repo, 'rev-parse', 'HEAD');
    const { code, events } = await run(repo);
    expect(code).toBe(3);
    expect(needsHuman(events).changes).toEqual(
      expect.arrayContaining(["branch 'from-tests' checked out (was on branch 'main')", "branch 'from-tests' created"]),
    );
    expectBackOnMain(repo, head);
    expect(git(repo, 'branch', '--list', 'from-tests')).toBe('');
    expect(readRepo(repo, 'a.txt')).toBe('agent edit\n');
  });
});

describe('the check right before the commit', () => {
  it('catches what changed after the step’s turn and tests: here in the turn that names the test command', async () => {
    const repo = tempRepo();
    cleanup = repo.cleanup;
    const script = {
      rules: [
        { when: { kind: 'write_plan' }, do: { text: PLAN } },
        { when: { kind: 'review' }, do: { verdict: 'APPROVED', text: '## Comments\n1. Fine.' } },
        { when: { kind: 'execute_step' }, do: { writeFiles: { 'a.txt': 'agent edit\n' }, text: 'Summary: add a.txt' } },
        { when: { kind: 'ask_test_command' }, do: { run: ['git tag late-tag'], text: 'Command: none' } },
      ],
    };
    const file = path.join(repo.home, 'script.json');
    writeFileSync(file, JSON.stringify(script));
    mkdirSync(path.join(repo.dir, '.agent-collab'), { recursive: true });
    writeFileSync(
      path.join(repo.dir, '.agent-collab', 'config.toml'),
      `[roles]\nplanner = "fake"\nreviewer = "fake"\n[fake]\nscript = ${JSON.stringify(file)}\n`,
    );
    const { code, events } = await run(repo);
    expect(code).toBe(3);
    expect(needsHuman(events).changes).toEqual(["tag 'late-tag' created"]);
    expect(git(repo, 'tag')).toBe('');
    expect(gitLog(repo.dir)).toEqual(['initial']);
    expect(readRepo(repo, 'a.txt')).toBe('agent edit\n');
  });
});

describe('a write turn stopped before its end', () => {
  it('stopped after too many denied commands: its branch switch is undone all the same, and log.md says so', async () => {
    const repo = repoWhereTheAgentRuns([
      'git checkout -q -b sneaky',
      'sudo true',
      'sudo true',
      'sudo true',
      'sudo true',
    ]);
    cleanup = repo.cleanup;
    const head = git(repo, 'rev-parse', 'HEAD');
    const { code, events } = await run(repo);
    expect(code).toBe(3);
    expect(needsHuman(events)).toMatchObject({ kind: 'step_failed', category: 'policy_block' });
    expectBackOnMain(repo, head);
    expect(git(repo, 'branch', '--list', 'sneaky')).toBe('');
    expect(readFileSync(path.join(repo.dir, '.agent-collab', 'log.md'), 'utf8')).toMatch(
      /was stopped; what the agent changed that it must not is undone\n\n- branch 'sneaky' checked out/,
    );
  });
});

describe('the person decides after a forbidden change', () => {
  it('--decide retry runs the step again and commits it', async () => {
    // Each run starts a new fake agent: the marker outside the repo makes it tag only once.
    const repo = repoWhereTheAgentRuns((r) => [`mkdir ${path.join(r.home, 'tagged')} && git tag sneaky-tag`]);
    cleanup = repo.cleanup;
    const first = await run(repo);
    expect(first.code).toBe(3);
    const retried = await run(repo, { goal: undefined, resume: 'resume', decision: parseDecision('retry') });
    expect(retried.code).toBe(0);
    expect(gitLog(repo.dir)).toEqual(['[Step 1] add a.txt', 'initial']);
    expect(git(repo, 'tag')).toBe('');
  });

  it('--decide skip ends the run with the step skipped and its edits uncommitted', async () => {
    const repo = repoWhereTheAgentRuns(['git tag sneaky-tag']);
    cleanup = repo.cleanup;
    expect((await run(repo)).code).toBe(3);
    const skipped = await run(repo, { goal: undefined, resume: 'resume', decision: parseDecision('skip') });
    expect(skipped.code).toBe(0);
    expect(gitLog(repo.dir)).toEqual(['initial']);
    expect(readRepo(repo, 'a.txt')).toBe('agent edit\n');
    expect(readFileSync(path.join(repo.dir, '.agent-collab', 'plan.md'), 'utf8')).toMatch(/1\. \[-\] Add a\.txt/);
  });

  it('a run whose agent stays within the repo’s files is committed as before', async () => {
    const repo = repoWhereTheAgentRuns(['echo ok > ok.txt']);
    cleanup = repo.cleanup;
    const { code } = await run(repo);
    expect(code).toBe(0);
    expect(gitLog(repo.dir)).toEqual(['[Step 1] add a.txt', 'initial']);
  });
});
