// The executor end to end with fake agents, real files and real git: tests after each step, a failing step
// retried with the failure fed back, only the step's own changes committed, artifacts, and the person's decisions.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../src/adapters/fake/fake-agent.js';
import type { FakeScript } from '../../src/adapters/fake/script.js';
import type { HeadlessOptions } from '../../src/modes/headless.js';
import { runAutoHeadless } from '../helpers/headless-run.js';
import { parseDecision } from '../../src/modes/decisions.js';
import { gitLog, readWork, tempRepo } from '../helpers/repo.js';

const PLAN = '# Task: Calc\n\n## Steps\n1. [ ] Add a.txt\n2. [ ] Add calc.js\n3. [ ] Add c.txt\n';
const approve: FakeScript = { rules: [{ do: { verdict: 'APPROVED', text: '## Comments\n1. Fine.' } }] };

/** A repo whose `npm test` fails while calc.js contains BROKEN. */
function repoWithTests(config = ''): ReturnType<typeof tempRepo> {
  const repo = tempRepo(config);
  writeFileSync(
    path.join(repo.dir, 'package.json'),
    JSON.stringify({ name: 'x', private: true, scripts: { test: 'node check.js' } }),
  );
  writeFileSync(
    path.join(repo.dir, 'check.js'),
    "const fs = require('fs');\nif (fs.existsSync('calc.js') && fs.readFileSync('calc.js', 'utf8').includes('BROKEN')) { console.error('calc.js is BROKEN: expected 2, got 3'); process.exit(1); }\nconsole.log('all good');\n",
  );
  execFileSync('git', ['add', '-A'], { cwd: repo.dir });
  execFileSync('git', ['commit', '-q', '-m', 'tests'], { cwd: repo.dir });
  return repo;
}

/** A planner with a one-step plan that adds a.txt. */
function oneStepPlanner(): FakeAgent {
  return new FakeAgent('planner', {
    rules: [
      { when: { kind: 'write_plan' }, do: { text: '## Steps\n1. [ ] Add a.txt\n' } },
      { when: { step: 1 }, do: { writeFiles: { 'a.txt': 'a\n' }, text: 'Summary: add a.txt' } },
    ],
  });
}

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function run(
  repo: ReturnType<typeof tempRepo>,
  agents: { planner: FakeAgent; reviewer: FakeAgent },
  extra: Partial<HeadlessOptions> = {},
) {
  return runAutoHeadless(repo, agents, { goal: 'calc', ...extra });
}

function runDir(repo: ReturnType<typeof tempRepo>): string {
  const runs = path.join(repo.dir, '.agent-collab', 'runs');
  const [id] = readdirSync(runs);
  return path.join(runs, id ?? '');
}

// A 3-step headless run with a test run after each step and a retry: 12 s on a quiet 2-core CI machine, over 30 s
// when other work loads it (measured).
describe('step execution: tests, retries, commits', { timeout: 90_000 }, () => {
  it('a 3-step plan ends with its commits, tests after each step, one step failing once and passing on retry', async () => {
    const repo = repoWithTests();
    cleanup = repo.cleanup;
    const planner = new FakeAgent('planner', {
      rules: [
        { when: { kind: 'write_plan' }, do: { text: PLAN } },
        { when: { step: 1 }, do: { writeFiles: { 'a.txt': 'a\n' }, text: 'Summary: add a.txt' } },
        { when: { step: 2 }, times: 1, do: { writeFiles: { 'calc.js': 'BROKEN\n' }, text: 'Summary: add calc.js' } },
        {
          when: { step: 2 },
          do: { writeFiles: { 'calc.js': 'module.exports = 2;\n' }, text: 'Fixed.\nSummary: add calc.js' },
        },
        { when: { step: 3 }, do: { writeFiles: { 'c.txt': 'c\n' }, text: 'Summary: add c.txt' } },
      ],
    });
    const { code, events } = await run(repo, { planner, reviewer: new FakeAgent('reviewer', approve) });
    expect(code).toBe(0);
    expect(gitLog(repo.dir)).toEqual([
      '[Step 3] add c.txt',
      '[Step 2] add calc.js',
      '[Step 1] add a.txt',
      'tests',
      'initial',
    ]);

    const tests = events
      .filter((e) => e.event === 'tests')
      .map((e) => `${String(e.step)}.${String(e.attempt)} ${e.passed ? 'pass' : 'fail'} ${String(e.command)}`);
    expect(tests).toEqual(['1.1 pass npm test', '2.1 fail npm test', '2.2 pass npm test', '3.1 pass npm test']);

    // The retry went to the planner's session with the failing output.
    const retry = planner.turns.filter((t) => t.turn.meta.kind === 'execute_step' && t.turn.meta.step === 2)[1];
    expect(retry?.method).toBe('resume');
    expect(retry?.turn.prompt).toContain('calc.js is BROKEN: expected 2, got 3');
    expect(retry?.turn.prompt).toContain('attempt 2 of 4');

    // Artifacts per attempt.
    const dir = runDir(repo);
    const a1 = path.join(dir, 'step-2', 'attempt-1');
    for (const f of ['prompt.md', 'events.jsonl', 'test-output.txt', 'patch.diff', 'verdict.json'])
      expect(existsSync(path.join(a1, f)), f).toBe(true);
    expect(JSON.parse(readFileSync(path.join(a1, 'verdict.json'), 'utf8'))).toMatchObject({
      result: 'fail',
      category: 'test_failure',
      command: 'npm test',
    });
    expect(readFileSync(path.join(a1, 'test-output.txt'), 'utf8')).toContain('calc.js is BROKEN');
    expect(readFileSync(path.join(a1, 'patch.diff'), 'utf8')).toContain('+BROKEN');
    expect(JSON.parse(readFileSync(path.join(dir, 'step-2', 'attempt-2', 'verdict.json'), 'utf8'))).toMatchObject({
      result: 'pass',
    });
    expect(readFileSync(path.join(dir, 'timeline.md'), 'utf8')).toMatch(
      /step 2 attempt 1: tests failed[\s\S]*step 2 committed as [0-9a-f]{7}/,
    );

    // log.md: one entry per step with its files, tests, commit, duration and tokens.
    const log = readWork(repo.dir, 'log.md');
    expect(log).toMatch(
      /Step 2 done: Add calc\.js[\s\S]*?commit [0-9a-f]{7}[\s\S]*?files: calc\.js[\s\S]*?tests: passed \(`npm test`\)[\s\S]*?attempts: 2[\s\S]*?duration: \d+ s[\s\S]*?tokens: \d+/,
    );
  });

  it("commits only the step's changes: the person's own edits, staged or not, stay out", async () => {
    const repo = repoWithTests();
    cleanup = repo.cleanup;
    writeFileSync(path.join(repo.dir, 'README.md'), '# test\nmy unstaged edit\n');
    writeFileSync(path.join(repo.dir, 'notes.txt'), 'my staged note\n');
    execFileSync('git', ['add', 'notes.txt'], { cwd: repo.dir });
    const planner = oneStepPlanner();
    const { code } = await run(repo, { planner, reviewer: new FakeAgent('reviewer', approve) });
    expect(code).toBe(0);
    const files = execFileSync('git', ['show', '--name-only', '--format=', 'HEAD'], { cwd: repo.dir, encoding: 'utf8' })
      .trim()
      .split('\n');
    expect(files).toEqual(['a.txt']);
    const status = execFileSync('git', ['status', '--porcelain'], { cwd: repo.dir, encoding: 'utf8' });
    expect(status).toContain(' M README.md');
    expect(status).toContain('A  notes.txt');
  });

  it('still failing after the retries: the run stops for the person (exit 3); rollback restores the tree, skip moves on', async () => {
    const repo = repoWithTests('[test]\nmax_retries = 1\n');
    cleanup = repo.cleanup;
    const script: FakeScript = {
      rules: [
        { when: { kind: 'write_plan' }, do: { text: '## Steps\n1. [ ] Add calc.js\n2. [ ] Add c.txt\n' } },
        { when: { step: 1 }, do: { writeFiles: { 'calc.js': 'BROKEN\n' }, text: 'Summary: add calc.js' } },
        { when: { step: 2 }, do: { writeFiles: { 'c.txt': 'c\n' }, text: 'Summary: add c.txt' } },
      ],
    };
    const agents = () => ({ planner: new FakeAgent('planner', script), reviewer: new FakeAgent('reviewer', approve) });
    const first = await run(repo, agents());
    expect(first.code).toBe(3);
    expect(first.events.find((e) => e.event === 'needs_human')).toMatchObject({
      kind: 'step_failed',
      step: 1,
      attempt: 2,
      category: 'test_failure',
    });
    expect(readFileSync(path.join(repo.dir, 'calc.js'), 'utf8')).toBe('BROKEN\n');

    const rolled = await run(repo, agents(), {
      goal: undefined,
      resume: 'resume',
      decision: parseDecision('rollback'),
    });
    expect(rolled.code).toBe(3);
    expect(rolled.events.find((e) => e.event === 'needs_human')).toMatchObject({
      kind: 'step_failed',
      rolledBack: true,
    });
    expect(existsSync(path.join(repo.dir, 'calc.js'))).toBe(false);
    expect(readFileSync(path.join(runDir(repo), 'step-1', 'attempt-2', 'rolled-back.patch.diff'), 'utf8')).toContain(
      '+BROKEN',
    );

    const skipped = await run(repo, agents(), { goal: undefined, resume: 'resume', decision: parseDecision('skip') });
    expect(skipped.code).toBe(0);
    expect(gitLog(repo.dir)[0]).toBe('[Step 2] add c.txt');
    expect(readWork(repo.dir, 'plan.md')).toMatch(/1\. \[-\] Add calc\.js/);
  });

  it('a possible secret is never committed silently', async () => {
    const repo = repoWithTests();
    cleanup = repo.cleanup;
    const planner = new FakeAgent('planner', {
      rules: [
        { when: { kind: 'write_plan' }, do: { text: '## Steps\n1. [ ] Add config\n' } },
        {
          when: { step: 1 },
          do: {
            writeFiles: { '.env': 'API_TOKEN=ghp_' + 'abcdefghijklmnopqrstuvwxyz0123456789\n', 'app.txt': 'app\n' },
            text: 'Summary: add config',
          },
        },
      ],
    });
    const { code, events } = await run(repo, { planner, reviewer: new FakeAgent('reviewer', approve) });
    expect(code).toBe(3);
    const need = events.find((e) => e.event === 'needs_human');
    expect(need).toMatchObject({ kind: 'secret_found', step: 1 });
    expect(JSON.stringify(need?.findings)).toContain('.env');
    expect(gitLog(repo.dir)[0]).toBe('tests');
    expect(execFileSync('git', ['diff', '--cached', '--name-only'], { cwd: repo.dir, encoding: 'utf8' })).toBe('');
  });

  it('a test command the policy blocks does not run; the step stops with policy_block', async () => {
    const repo = repoWithTests('[test]\ndefault_command = "sudo touch ran-as-root"\n');
    cleanup = repo.cleanup;
    const planner = oneStepPlanner();
    const { code, events } = await run(repo, { planner, reviewer: new FakeAgent('reviewer', approve) });
    expect(code).toBe(3);
    expect(events.find((e) => e.event === 'command')).toMatchObject({
      role: 'agent-collab',
      command: 'sudo touch ran-as-root',
      decision: 'deny',
      rule: 'sudo',
    });
    expect(events.find((e) => e.event === 'needs_human')).toMatchObject({
      kind: 'step_failed',
      category: 'policy_block',
    });
    expect(existsSync(path.join(repo.dir, 'ran-as-root'))).toBe(false);
  });

  it("agent-collab's own git commit passes the same policy: a rule that blocks it stops the step before committing", async () => {
    const repo = repoWithTests('[safety]\nblocked_commands = ["git commit"]\n');
    cleanup = repo.cleanup;
    const planner = oneStepPlanner();
    const { code, events } = await run(repo, { planner, reviewer: new FakeAgent('reviewer', approve) });
    expect(code).toBe(3);
    expect(events.find((e) => e.event === 'needs_human')).toMatchObject({ kind: 'commit_failed', step: 1 });
    expect(String(events.find((e) => e.event === 'needs_human')?.message)).toContain('git commit');
    expect(gitLog(repo.dir)[0]).toBe('tests');
  });
});
