// Issue 20: the Diff tab shows each committed step's patch (files with lines added / removed, hunks coloured) and
// the code review's diff, read from real `[Step N]` commits in a temp repo through the session's files port (git in
// adapters, redacted like every other sink).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import chalk from 'chalk';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { commitDiff } from '../../../src/adapters/git/commit-diff.js';
import type { StepInfo, WorkflowState } from '../../../src/core/types.js';
import { filesReader } from '../../../src/modes/interactive.js';
import { App } from '../../../src/ui/App.js';
import { redactedFiles } from '../../../src/ui/redacted-engine.js';
import { stateIn } from '../../helpers/states.js';
import { FakeEngine, listening, sleep, waitFor } from '../../unit/ui/ui-helpers.js';
import { closeFakeSessions, openFakeSession } from './fake-session.js';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import { openSession } from '../../../src/modes/session.js';
import { runAutoHeadless } from '../../helpers/headless-run.js';
import { readWork, tempRepo } from '../../helpers/repo.js';

afterEach(async () => {
  cleanup();
  await closeFakeSessions();
});

const GH_TOKEN = `ghp_${'k3Jd9Qw2Lm'.repeat(3)}Zx81Pq`;

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
}

function write(dir: string, file: string, text: string): void {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), text);
}

/** A `[Step n]` commit of everything changed, as agent-collab makes it (subject and run trailer). */
function stepCommit(dir: string, n: number, title: string): string {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', `[Step ${n}] ${title}\n\nAgent-Collab-Run: run-1`);
  return git(dir, 'rev-parse', 'HEAD');
}

/** A temp repo with two step commits, and the App over a state that has them, reading through the real session. */
async function twoStepRun(opts: { colors: boolean; state?: Partial<WorkflowState> }) {
  const { session, dir } = await openFakeSession('');
  write(dir, 'src/greet.ts', 'export function greet(name: string) {\n  return `Hi ${name}`;\n}\n');
  write(dir, 'docs/greet.md', '# greet\n');
  const first = stepCommit(dir, 1, 'Add greet()');
  write(dir, 'src/greet.ts', 'export function greet(name: string) {\n  return `Hello, ${name}!`;\n}\n');
  write(dir, 'src/config.ts', `export const token = '${GH_TOKEN}';\n`);
  const second = stepCommit(dir, 2, 'Say hello');
  const steps: StepInfo[] = [
    { n: 1, title: 'Add greet()', done: true, commit: first },
    { n: 2, title: 'Say hello', done: true, commit: second },
  ];
  const engine = new FakeEngine(stateIn('DONE', { steps, ...opts.state }));
  const r = render(
    <App
      engine={engine}
      files={redactedFiles(filesReader(session), session.redactor)}
      colors={opts.colors}
      tickMs={0}
    />,
  );
  await listening(r.stdin);
  const press = async (...keys: string[]): Promise<void> => {
    for (const k of keys) {
      r.stdin.write(k);
      await sleep(5);
    }
  };
  return { r, engine, press, frame: () => r.lastFrame() ?? '', first, second, dir };
}

const line = (frame: string, text: string): string => frame.split('\n').find((l) => l.includes(text)) ?? '';
// eslint-disable-next-line no-control-regex
const plain = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '');
// eslint-disable-next-line no-control-regex
const colourCodes = (s: string): string[] => s.match(/\u001b\[(?:3[0-9]|9[0-7]|4[0-9])m/g) ?? [];

describe('the Diff tab', { timeout: 60_000 }, () => {
  it("lists the newest step's files with lines added / removed and colours its hunks; [ shows the step before", async () => {
    const level = chalk.level;
    chalk.level = 1;
    onTestFinished(() => {
      chalk.level = level;
    });
    const t = await twoStepRun({ colors: true });
    await t.press('7');
    await waitFor(() => expect(plain(t.frame())).toContain('2 file(s) changed, +2 -1'), 20_000);
    expect(plain(t.frame())).toContain(`Step 2 · ${t.second.slice(0, 7)} · Say hello`);
    expect(plain(t.frame())).toMatch(/A src\/config\.ts +\+1 -0/);
    expect(plain(t.frame())).toMatch(/M src\/greet\.ts +\+1 -1/);
    // The patch goes on below the window: End scrolls to its last hunk.
    await t.press('G');
    await waitFor(() => expect(t.frame()).toContain('Hello, ${name}!'));
    const f = t.frame();
    // Added green (32), removed red (31), hunk headers cyan (36); the +/- stay in the text.
    expect(line(f, 'Hello, ${name}!')).toContain('\u001b[32m');
    expect(plain(line(f, 'Hello, ${name}!'))).toMatch(/^\+ {2}return/);
    expect(line(f, 'Hi ${name}')).toContain('\u001b[31m');
    expect(plain(line(f, 'Hi ${name}'))).toMatch(/^- {2}return/);
    expect(line(f, '@@ -1,3 +1,3 @@')).toContain('\u001b[36m');
    // Another step opens at its top.
    await t.press('[');
    await waitFor(() => expect(plain(t.frame())).toContain(`Step 1 · ${t.first.slice(0, 7)} · Add greet()`));
    await waitFor(() => expect(plain(t.frame())).toMatch(/A docs\/greet\.md +\+1 -0/));
    expect(plain(t.frame())).toMatch(/A src\/greet\.ts +\+3 -0/);
    expect(plain(t.frame())).not.toContain('src/config.ts');
    await t.press(']');
    await waitFor(() => expect(plain(t.frame())).toContain('Step 2 ·'));
  });

  it('with NO_COLOR draws no colour but keeps the +/- prefixes and the hunk headers', async () => {
    const level = chalk.level;
    chalk.level = 1;
    onTestFinished(() => {
      chalk.level = level;
    });
    const t = await twoStepRun({ colors: false });
    await t.press('7');
    await waitFor(() => expect(t.frame()).toContain('src/greet.ts'), 20_000);
    await t.press('G');
    await waitFor(() => expect(t.frame()).toContain('Hello, ${name}!'));
    const f = t.frame();
    expect(colourCodes(f)).toEqual([]);
    expect(plain(line(f, 'Hello, ${name}!'))).toMatch(/^\+ {2}return `Hello/);
    expect(plain(line(f, 'Hi ${name}'))).toMatch(/^- {2}return `Hi/);
    expect(plain(f)).toContain('@@ -1,3 +1,3 @@');
  });

  it("shows a secret in a step's patch redacted, never as committed", async () => {
    const t = await twoStepRun({ colors: false });
    await t.press('7');
    await waitFor(() => expect(t.frame()).toContain('src/config.ts'), 20_000);
    await waitFor(() => expect(t.frame()).toContain('export const token'));
    expect(t.frame()).not.toContain(GH_TOKEN);
    expect(line(t.frame(), 'export const token')).toContain('[REDACTED');
  });

  it("after the last step, ] shows the code review's diff with its own file list", async () => {
    const reviewDiff = [
      'diff --git a/src/greet.ts b/src/greet.ts',
      '--- a/src/greet.ts',
      '+++ b/src/greet.ts',
      '@@ -1 +1,2 @@',
      ' export function greet() {}',
      '+export const reviewed = true;',
    ].join('\n');
    const state: Partial<WorkflowState> = {
      codeReview: {
        mode: 'final',
        maxRounds: 3,
        limit: 3,
        round: 1,
        step: null,
        baseTree: null,
        diff: reviewDiff,
        comments: null,
        tests: [],
        approved: false,
      },
    };
    const t = await twoStepRun({ colors: false, state });
    await t.press('7');
    // The newest choice is the code review's diff; [ goes back to the steps.
    await waitFor(() => expect(t.frame()).toContain("Code review: the run's changes"), 20_000);
    expect(t.frame()).toMatch(/M src\/greet\.ts +\+1 -0/);
    expect(t.frame()).toContain('+export const reviewed = true;');
    await t.press('[');
    await waitFor(() => expect(t.frame()).toContain('Step 2 ·'));
    await t.press(']');
    await waitFor(() => expect(t.frame()).toContain('Code review:'));
  });
});

describe('the Diff tab and a plan the run left', { timeout: 60_000 }, () => {
  it("still shows the step commits of a plan the run was stopped on (found in git by the run's trailer)", async () => {
    // The state knows only the second commit's step; git also has the first, by the same run's trailer.
    const t = await twoStepRun({ colors: false, state: { steps: [] } });
    t.engine.set({ steps: [{ n: 2, title: 'Say hello', done: true, commit: t.second }] });
    await t.press('7');
    await waitFor(() => expect(t.frame()).toContain('[ / ] choose: step 1  [step 2]'), 20_000);
    expect(t.frame()).toContain(`Step 2 · ${t.second.slice(0, 7)} · Say hello`);
    await t.press('[');
    await waitFor(() => expect(t.frame()).toContain(`Step 1 · ${t.first.slice(0, 7)} · Add greet()`));
    await waitFor(() => expect(t.frame()).toMatch(/A docs\/greet\.md +\+1 -0/));
  });
});

describe('the Diff tab after a real run', { timeout: 120_000 }, () => {
  it("lists both steps' files from the commits the engine made, each step in turn", async () => {
    const repo = tempRepo('[roles]\nplanner = "fake"\nreviewer = "fake"\n');
    onTestFinished(repo.cleanup);
    const test = `node -e "process.exit(0)"`;
    writeFileSync(path.join(repo.dir, 'package.json'), JSON.stringify({ name: 'x', private: true, scripts: { test } }));
    git(repo.dir, 'add', '-A');
    git(repo.dir, 'commit', '-q', '-m', 'tests');
    const planner = new FakeAgent('planner', {
      rules: [
        {
          when: { kind: 'write_plan' },
          do: { text: '# Task\n\n## Steps\n1. [ ] Add greeting\n2. [ ] Add farewell\n' },
        },
        { when: { step: 1 }, do: { writeFiles: { 'greeting.txt': 'hello\n' }, text: 'Summary: add greeting.txt' } },
        { when: { step: 2 }, do: { writeFiles: { 'farewell.txt': 'bye\nfor now\n' }, text: 'Summary: add farewell' } },
      ],
    });
    const reviewer = new FakeAgent('reviewer', {
      rules: [{ do: { verdict: 'APPROVED' as const, text: '## Comments\n1. Fine.' } }],
    });
    const { code } = await runAutoHeadless(repo, { planner, reviewer }, { goal: 'greet and say bye' });
    expect(code).toBe(0);
    const state = JSON.parse(readWork(repo.dir, 'state.json')) as WorkflowState;
    expect(state.steps.map((s) => typeof s.commit)).toEqual(['string', 'string']);
    const session = await openSession({ cwd: repo.dir, homeDir: repo.home, agents: { planner, reviewer } });
    onTestFinished(() => session.close());
    const r = render(
      <App engine={new FakeEngine(state)} files={redactedFiles(filesReader(session), session.redactor)} tickMs={0} />,
    );
    await listening(r.stdin);
    r.stdin.write('7');
    const frame = (): string => r.lastFrame() ?? '';
    // The code review (final, the default) read the run's whole diff: shown first, both files in it.
    await waitFor(() => expect(frame()).toContain('Code review: the run'), 20_000);
    expect(frame()).toMatch(/A farewell\.txt +\+2 -0\n +A greeting\.txt +\+1 -0/);
    r.stdin.write('[');
    await waitFor(() => expect(frame()).toContain('Step 2 ·'));
    await waitFor(() => expect(frame()).toMatch(/A farewell\.txt +\+2 -0/));
    expect(frame()).toContain('+for now');
    expect(frame()).not.toContain('greeting.txt');
    r.stdin.write('[');
    await waitFor(() => expect(frame()).toMatch(/A greeting\.txt +\+1 -0/));
    expect(frame()).toContain('+hello');
    expect(frame()).not.toContain('farewell.txt');
  });
});

describe('commitDiff (adapters/git)', { timeout: 60_000 }, () => {
  it('reads a huge patch only up to its cap, and still counts every file exactly', async () => {
    const { dir } = await openFakeSession('');
    const big = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n');
    write(dir, 'big.txt', `${big}\n`);
    write(dir, 'small.txt', 'small\n');
    const hash = stepCommit(dir, 1, 'Big');
    const diff = await commitDiff(dir, hash, ['.'], 4096);
    expect(diff.truncated).toBe(true);
    expect(Buffer.byteLength(diff.patch)).toBeLessThanOrEqual(4096);
    expect(diff.files).toEqual([
      { path: 'big.txt', change: 'added', added: 5000, removed: 0 },
      { path: 'small.txt', change: 'added', added: 1, removed: 0 },
    ]);
    const whole = await commitDiff(dir, hash, ['.']);
    expect(whole.truncated).toBe(false);
    expect(whole.patch).toContain('+line 4999');
  });

  it('refuses anything but a commit id before git sees it', async () => {
    const { dir } = await openFakeSession('');
    await expect(commitDiff(dir, '--output=/tmp/x', ['.'])).rejects.toThrow(/not a commit id/);
  });
});
