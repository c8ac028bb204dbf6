// examples/github-actions/agent-collab.yml: parsed as YAML, its agent-collab flags checked by the built CLI's own
// parser, nothing of the event interpolated into a script, and its run and publish steps run as a runner runs them
// (fake agents, a bare repo as origin, a recording `gh`): the issue's text reaches the run as data, a DONE run's
// branch is pushed with its [Step N] commits and a PR is opened with the report; a run that needs a person is
// pushed, commented on, and continued with --answer.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, runToEnd } from '../../helpers/cli.js';
import { readWork, tempRepoWithFakeScript } from '../../helpers/repo.js';
import { agentCollabArgs, ciBin, parseWorkflow, runnerFiles, runStep, stepNamed, WORKFLOW } from './ci-helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

const RUN = 'Run agent-collab';
const PUBLISH = 'Push the branch; open a pull request when the run is DONE';

describe('the example workflow, read', () => {
  const wf = parseWorkflow();
  const job = wf.jobs.run!;

  it('is triggered by an issue label or by hand with an issue number, one run per issue at a time', () => {
    expect(wf.on.issues).toEqual({ types: ['labeled'] });
    expect(wf.on.workflow_dispatch).toMatchObject({ inputs: { issue: { required: true, type: 'number' } } });
    expect(wf.concurrency).toEqual({
      group: 'agent-collab-issue-${{ github.event.issue.number || inputs.issue }}',
      'cancel-in-progress': false,
    });
    expect(job['runs-on']).toBe('ubuntu-24.04');
    // The run is stopped (SIGINT) before the job's own limit kills everything: it gets to save its state.
    expect(Number(job.env.RUN_MINUTES)).toBeLessThan(job['timeout-minutes']);
  });

  it('interpolates no ${{ … }} expression into any run: script (the issue reaches scripts only as env and files)', () => {
    const scripts = job.steps.filter((s) => s.run !== undefined);
    expect(scripts.length).toBeGreaterThan(4);
    for (const s of scripts) expect(s.run, s.name).not.toMatch(/\$\{\{/);
    // The raw file too: a run: block written in a YAML form the parse above could have missed.
    const raw = readFileSync(WORKFLOW, 'utf8');
    const runBlocks = raw.split(/\n\s+run: \|\n/).slice(1);
    for (const block of runBlocks) expect(block.split(/\n\s+- (?:name|uses): /)[0]).not.toMatch(/\$\{\{/);
    // What comes from the event is handed over in env only.
    expect(job.env.ISSUE_NUMBER).toBe('${{ github.event.issue.number || inputs.issue }}');
  });

  it('uploads .agent-collab/ as an artifact even when the run failed, and installs the CLIs pinned', () => {
    const upload = job.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(upload).toMatchObject({ if: 'always()', with: { path: '.agent-collab/', 'include-hidden-files': true } });
    expect(job.env.CLAUDE_PACKAGE).toMatch(/^@anthropic-ai\/claude-code@\d+\.\d+\.\d+$/);
    expect(job.env.CODEX_PACKAGE).toMatch(/^@openai\/codex@\d+\.\d+\.\d+$/);
    // Secrets go into the run step's env, never into a command line.
    expect(stepNamed(wf, RUN).env).toEqual({
      ANTHROPIC_API_KEY: '${{ secrets.ANTHROPIC_API_KEY }}',
      CODEX_API_KEY: '${{ secrets.OPENAI_API_KEY }}',
    });
  });

  it('hands agent-collab only flags its own parser accepts (a misspelt one is refused by the same check)', async () => {
    const invocations = agentCollabArgs(stepNamed(wf, RUN).run!);
    const flags = invocations.flat().filter((w) => w.startsWith('--'));
    expect(new Set(flags)).toEqual(
      new Set(['--resume', '--decide', '--answer', '--goal-file', '--auto', '--auto-approve', '--json']),
    );
    // Values stand in for the shell variables; `--help` after strict parsing: exit 0 only if every flag is known.
    const argv = invocations.flat().map((w) => (w.startsWith('"$') ? 'x' : w));
    const accepted = await runToEnd(process.execPath, [CLI, 'run', ...argv, '--help'], {
      cwd: os.tmpdir(),
      env: process.env,
    });
    expect(accepted.code).toBe(0);
    const misspelt = await runToEnd(process.execPath, [CLI, 'run', ...argv, '--auto-aprove', '--help'], {
      cwd: os.tmpdir(),
      env: process.env,
    });
    expect(misspelt.code).toBe(2);
    expect(misspelt.stderr).toContain("Unknown option '--auto-aprove'");
  });
});

/** A repo with fake agents, on the run's branch, with a bare repo as origin; the runner's env for its steps. */
function runnerRepo(script: unknown, opts: { gh: boolean; config?: string }) {
  const repo = tempRepoWithFakeScript(script);
  cleanups.push(repo.cleanup);
  if (opts.config) writeFileSync(path.join(repo.dir, '.agent-collab', 'config.toml'), opts.config, { flag: 'a' });
  const origin = mkdtempSync(path.join(os.tmpdir(), 'ac-ci-origin-'));
  cleanups.push(() => rmSync(origin, { recursive: true, force: true }));
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: repo.dir, encoding: 'utf8' });
  execFileSync('git', ['init', '-q', '--bare', origin]);
  git('remote', 'add', 'origin', origin);
  git('switch', '-q', '-c', 'agent-collab/issue-7');
  const bin = ciBin(opts.gh);
  cleanups.push(bin.cleanup);
  const runner = runnerFiles();
  cleanups.push(() => rmSync(runner.temp, { recursive: true, force: true }));
  const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
    PATH: `${bin.dir}:${process.env.PATH ?? ''}`,
    HOME: repo.home,
    XDG_CONFIG_HOME: path.join(repo.home, '.config'),
    NO_COLOR: '1',
    RUNNER_TEMP: runner.temp,
    GITHUB_OUTPUT: runner.output,
    GITHUB_ENV: runner.env,
    GITHUB_RUN_ID: '4242',
    ISSUE_NUMBER: '7',
    BRANCH: 'agent-collab/issue-7',
    RUN_MINUTES: '10',
    RESUME_RUN_ID: '',
    DECIDE: '',
    ANSWER: '',
    ...extra,
  });
  const originLog = (): string[] =>
    execFileSync('git', ['--git-dir', origin, 'log', '--format=%s', 'agent-collab/issue-7'], { encoding: 'utf8' })
      .trim()
      .split('\n');
  return { repo, bin, runner, env, originLog };
}

/** A plan of one step (each step commit is a boxed git run: one keeps the file quick). */
const ONE_STEP = { when: { kind: 'write_plan' }, do: { text: '## Steps\n1. [ ] Add a.txt\n' } };

const events = (file: string): Array<Record<string, unknown>> =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('the example workflow, run as a runner runs it', () => {
  const wf = parseWorkflow();

  it("runs on the issue's text as data; a question → exit 3, pushed, hint commented; --answer → DONE, PR with the report", async () => {
    const r = runnerRepo(
      {
        rules: [
          { when: { kind: 'write_plan', resumed: false }, do: { question: 'Which database should I use?' } },
          ONE_STEP,
        ],
      },
      { gh: true },
    );
    // An issue body written to break out of a script, were it ever interpolated into one.
    const goal = '# Add a flag\n\nIt must say "$(touch injected-1)" and `touch injected-2`; touch injected-3\n';
    writeFileSync(path.join(r.runner.temp, 'goal.md'), goal);

    const asked = await runStep(stepNamed(wf, RUN).run!, { cwd: r.repo.dir, env: r.env() });
    expect(asked.code).toBe(0);
    expect(r.runner.outputs()).toEqual({ exit_code: '3' });
    expect(JSON.parse(readWork(r.repo.dir, 'state.json'))).toMatchObject({ goal: goal.trim() });
    const hint = readFileSync(path.join(r.runner.temp, 'hint.txt'), 'utf8');
    expect(hint).toContain('the planner asks: Which database should I use?');
    expect(hint).toContain('--answer');
    // The events go into the artifact's directory with the run's files.
    expect(readWork(r.repo.dir, 'ci-events.ndjson')).toBe(
      readFileSync(path.join(r.runner.temp, 'events.ndjson'), 'utf8'),
    );

    const waiting = await runStep(stepNamed(wf, PUBLISH).run!, { cwd: r.repo.dir, env: r.env({ EXIT_CODE: '3' }) });
    expect(waiting.code).toBe(0);
    expect(r.originLog()).toEqual(['initial']); // pushed, to be resumed from
    const [comment] = r.bin.ghCalls();
    expect(comment!.slice(0, 4)).toEqual(['issue', 'comment', '7', '--body-file']);
    const commentText = readFileSync(comment![4]!, 'utf8');
    expect(commentText).toContain(hint);
    expect(commentText).toContain('resume_run_id 4242');

    writeFileSync(r.runner.output, '');
    const answered = await runStep(stepNamed(wf, RUN).run!, {
      cwd: r.repo.dir,
      env: r.env({ RESUME_RUN_ID: '4242', ANSWER: 'Postgres; $(touch injected-4)' }),
    });
    expect(answered.code).toBe(0);
    expect(r.runner.outputs()).toEqual({ exit_code: '0' });
    expect(readWork(r.repo.dir, 'log.md')).toContain('Postgres; $(touch injected-4)');
    for (const f of ['injected-1', 'injected-2', 'injected-3', 'injected-4'])
      expect(existsSync(path.join(r.repo.dir, f))).toBe(false);
    expect(JSON.parse(readWork(r.repo.dir, 'state.json'))).toMatchObject({ phase: 'DONE' });
    expect(events(path.join(r.runner.temp, 'events.ndjson')).at(-1)).toMatchObject({ event: 'done', exit_code: 0 });

    const done = await runStep(stepNamed(wf, PUBLISH).run!, { cwd: r.repo.dir, env: r.env({ EXIT_CODE: '0' }) });
    expect(done.code).toBe(0);
    expect(r.originLog()).toEqual([expect.stringMatching(/^\[Step 1\] /), 'initial']);
    const [, pr, ...more] = r.bin.ghCalls();
    expect(more).toEqual([]);
    expect(pr!.slice(0, 7)).toEqual([
      'pr',
      'create',
      '--head',
      'agent-collab/issue-7',
      '--title',
      'agent-collab: issue #7',
      '--body-file',
    ]);
    const runs = readdirSync(path.join(r.repo.dir, '.agent-collab', 'runs'));
    expect(runs).toHaveLength(1);
    const report = readWork(r.repo.dir, `runs/${runs[0]!}/report.md`);
    expect(report).toContain('status: "SUCCESS"');
    expect(readFileSync(pr![7]!, 'utf8')).toBe(`Closes #7\n\n${report}`);
  });

  it('without gh the branch is still pushed and no PR is attempted; an unknown exit code pushes nothing', async () => {
    const r = runnerRepo({ rules: [] }, { gh: false });
    writeFileSync(path.join(r.repo.dir, 'change.txt'), 'x\n');
    execFileSync('git', ['add', '-A'], { cwd: r.repo.dir });
    execFileSync('git', ['commit', '-q', '-m', '[Step 1] a change'], { cwd: r.repo.dir });

    const bad = await runStep(stepNamed(wf, PUBLISH).run!, { cwd: r.repo.dir, env: r.env({ EXIT_CODE: '2' }) });
    expect(bad).toMatchObject({ code: 0, stdout: 'agent-collab exited 2: nothing to push\n' });
    expect(() => r.originLog()).toThrow(); // no branch on origin

    const done = await runStep(stepNamed(wf, PUBLISH).run!, { cwd: r.repo.dir, env: r.env({ EXIT_CODE: '0' }) });
    expect(done.code).toBe(0);
    expect(done.stdout).toContain('gh is not installed: open a pull request from agent-collab/issue-7 by hand');
    expect(r.originLog()[0]).toBe('[Step 1] a change');
  });

  it('the failing job step fails unless the run is DONE', async () => {
    const script = stepNamed(wf, 'Fail the job unless the run is DONE').run!;
    const env = { PATH: process.env.PATH ?? '' };
    expect((await runStep(script, { cwd: os.tmpdir(), env: { ...env, EXIT_CODE: '0' } })).code).toBe(0);
    for (const code of ['2', '3', '4', '130', ''])
      expect((await runStep(script, { cwd: os.tmpdir(), env: { ...env, EXIT_CODE: code } })).code).toBe(1);
  });
});
