// Issue 19, item 7: every run that ends (done, stopped, cancelled) writes runs/<run id>/report.md and an NDJSON
// `report` event; a run that waits for a person (exit 3) has not ended and writes none. Fake agents, real git.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../src/adapters/fake/fake-agent.js';
import { runAutoHeadless, type RunEvent } from '../helpers/headless-run.js';
import { readWork, tempRepo } from '../helpers/repo.js';

const PLAN = '# Task: Greet\n\n## Steps\n1. [ ] Add greeting.txt\n2. [ ] Add farewell.txt\n';
const approve = { do: { verdict: 'APPROVED' as const, text: '## Comments\n1. Fine.' } };

/** A repo whose `npm test` fails while bad.txt exists. */
function repo(config = '') {
  const r = tempRepo(config);
  const test = `node -e "process.exit(require('fs').existsSync('bad.txt') ? 1 : 0)"`;
  writeFileSync(path.join(r.dir, 'package.json'), JSON.stringify({ name: 'x', private: true, scripts: { test } }));
  execFileSync('git', ['add', '-A'], { cwd: r.dir });
  execFileSync('git', ['commit', '-q', '-m', 'tests'], { cwd: r.dir });
  return r;
}

function planner(step2: Record<string, string>, plan = PLAN): FakeAgent {
  return new FakeAgent('planner', {
    rules: [
      { when: { kind: 'write_plan' }, do: { text: plan } },
      { when: { step: 1 }, do: { writeFiles: { 'greeting.txt': 'hello\n' }, text: 'Summary: add greeting.txt' } },
      { when: { step: 2 }, do: { writeFiles: step2, text: 'Summary: add farewell.txt' } },
    ],
  });
}

/** The run's `[Step N]` commits, newest first, as `hash subject`. */
function stepCommits(dir: string): { hash: string; subject: string }[] {
  return execFileSync('git', ['log', '--format=%H %s'], { cwd: dir, encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => ({ hash: l.slice(0, 40), subject: l.slice(41) }))
    .filter((c) => c.subject.startsWith('[Step '));
}

function runId(dir: string): string {
  return (JSON.parse(readWork(dir, 'state.json')) as { runId: string }).runId;
}

function reportEvent(events: RunEvent[]): RunEvent | undefined {
  return events.find((e) => e.event === 'report');
}

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('run report', { timeout: 120_000 }, () => {
  it('a DONE run writes report.md with SUCCESS, its steps’ real commits, the files changed, and a `report` event', async () => {
    const r = repo();
    cleanup = r.cleanup;
    const reviewer = new FakeAgent('reviewer', { rules: [approve] });
    const { code, events } = await runAutoHeadless(
      r,
      { planner: planner({ 'farewell.txt': 'bye\n' }), reviewer },
      { goal: 'greet' },
    );
    expect(code).toBe(0);
    const id = runId(r.dir);
    const file = path.join(r.dir, '.agent-collab', 'runs', id, 'report.md');
    const report = readFileSync(file, 'utf8');
    expect(report).toContain('\nstatus: "SUCCESS"\n');
    const commits = stepCommits(r.dir);
    expect(commits.map((c) => c.subject)).toEqual(['[Step 2] add farewell.txt', '[Step 1] add greeting.txt']);
    for (const c of commits) {
      expect(report).toContain(`| \`${c.hash}\` | ${c.subject} |`);
      expect(report).toMatch(
        new RegExp(`\\| committed \\| \`${c.hash.slice(0, 12)}\` \\| passed \\(\`npm test\`\\) \\|`),
      );
    }
    expect(report).toContain('| farewell.txt | added | 1 | 0 |');
    expect(report).toContain('| greeting.txt | added | 1 | 0 |');
    expect(report).not.toContain('package.json'); // the person's own commit is not the run's work
    expect(report).toContain('**Outcome**: approved by the reviewer');
    // Both roles used tokens (the fake agents report usage on every turn).
    expect(report).toMatch(/\| planner \(and executor\) \| [^|]+ \| CLI default \| CLI default \| [1-9]\d* \| [1-9]/);
    expect(report).toMatch(/\| reviewer \| [^|]+ \| CLI default \| CLI default \| [1-9]\d* \| [1-9]/);

    const ev = reportEvent(events);
    expect(ev).toMatchObject({
      status: 'SUCCESS',
      ending: 'done',
      path: file,
      steps_done: 2,
      steps_total: 2,
      commits: 2,
      files_changed: 2,
    });
    expect(ev?.tokens).toBeGreaterThan(0);
    // The report comes before the end of the run's output.
    expect(events.indexOf(ev as RunEvent)).toBeLessThan(events.findIndex((e) => e.event === 'done'));
  });

  it('a run stopped after one of two steps is PARTIAL; waiting for the person before (exit 3) wrote no report', async () => {
    const r = repo('[test]\nmax_retries = 0\n[review]\ncode = "off"\n');
    cleanup = r.cleanup;
    const agents = {
      planner: planner({ 'bad.txt': 'x\n' }),
      reviewer: new FakeAgent('reviewer', { rules: [approve] }),
    };
    const first = await runAutoHeadless(r, agents, { goal: 'greet' });
    expect(first.code).toBe(3);
    expect(first.events.find((e) => e.event === 'needs_human')).toMatchObject({ kind: 'step_failed', step: 2 });
    const id = runId(r.dir);
    const file = path.join(r.dir, '.agent-collab', 'runs', id, 'report.md');
    expect(existsSync(file)).toBe(false);
    expect(reportEvent(first.events)).toBeUndefined();

    const stopped = await runAutoHeadless(r, agents, { resume: 'resume', decision: { word: 'stop' } });
    expect(stopped.code).toBe(3); // back at goal refinement: the run can go on with a new goal
    const report = readFileSync(file, 'utf8');
    expect(report).toContain('\nstatus: "PARTIAL"\n');
    expect(report).toContain('\nending: "stopped"\n');
    const [step1] = stepCommits(r.dir);
    expect(stepCommits(r.dir)).toHaveLength(1);
    expect(report).toContain(`| 1 | Add greeting.txt | committed | \`${step1?.hash.slice(0, 12)}\``);
    expect(report).toMatch(
      /\| 2 \| Add farewell\.txt \| stopped here \|\s+\| failed \(attempt 1\): `npm test` failed \|/,
    );
    expect(report).toContain('Stopped at step 2 by the person');
    expect(report).toContain('**Plan review**: 1 round(s)'); // the stop resets the count for the next goal, not here
    expect(report).toContain('| greeting.txt | added |');
    expect(report).not.toContain('bad.txt'); // never committed
    expect(reportEvent(stopped.events)).toMatchObject({ status: 'PARTIAL', path: file, steps_done: 1, commits: 1 });

    // The run goes on with a new goal and is stopped again: the first stop's report is kept, not written over.
    const again = await runAutoHeadless(r, agents, { resume: 'resume', goal: 'greet again' });
    expect(again.code).toBe(3);
    await runAutoHeadless(r, agents, { resume: 'resume', decision: { word: 'stop' } });
    expect(readFileSync(file.replace(/\.md$/, '-1.md'), 'utf8')).toBe(report);
    expect(readFileSync(file, 'utf8')).toContain('\nending: "stopped"\n');
  });

  it('a failed run cancelled by the person is FAILED; its report moves to history/ with the run', async () => {
    const r = repo('[test]\nmax_retries = 0\n[review]\ncode = "off"\n');
    cleanup = r.cleanup;
    const plan = '# Task: Greet\n\n## Steps\n1. [ ] Add greeting.txt\n';
    const p = new FakeAgent('planner', {
      rules: [
        { when: { kind: 'write_plan' }, do: { text: plan } },
        { when: { step: 1 }, do: { writeFiles: { 'bad.txt': 'x\n' }, text: 'Summary: add it' } },
      ],
    });
    const agents = { planner: p, reviewer: new FakeAgent('reviewer', { rules: [approve] }) };
    expect((await runAutoHeadless(r, agents, { goal: 'greet' })).code).toBe(3);
    const id = runId(r.dir);

    const cancelled = await runAutoHeadless(r, agents, { resume: 'resume', decision: { word: 'cancel' } });
    expect(cancelled.code).toBe(0);
    const history = path.join(r.dir, '.agent-collab', 'history');
    const [archived] = readdirSync(history);
    const file = path.join(history, archived ?? '', 'runs', id, 'report.md');
    const report = readFileSync(file, 'utf8');
    expect(report).toContain('\nstatus: "FAILED"\n');
    expect(report).toContain('\nending: "cancelled"\n');
    expect(report).toContain('None: the run committed nothing.');
    expect(report).toMatch(/\| 1 \| Add greeting\.txt \| stopped here \|/);
    expect(existsSync(path.join(r.dir, '.agent-collab', 'runs', id))).toBe(false);
    expect(reportEvent(cancelled.events)).toMatchObject({ status: 'FAILED', ending: 'cancelled', path: file });
  });

  it('a run that ends on an agent failure (exit 4) writes its report: ending failed, the failure named, step 2 under way', async () => {
    const r = repo('[review]\ncode = "off"\n');
    cleanup = r.cleanup;
    const p = new FakeAgent('planner', {
      rules: [
        { when: { kind: 'write_plan' }, do: { text: PLAN } },
        { when: { step: 1 }, do: { writeFiles: { 'greeting.txt': 'hello\n' }, text: 'Summary: add greeting.txt' } },
        { when: { step: 2 }, do: { fail: { kind: 'auth', message: 'invalid API key' } } },
      ],
    });
    const run = await runAutoHeadless(
      r,
      { planner: p, reviewer: new FakeAgent('reviewer', { rules: [approve] }) },
      {
        goal: 'greet',
      },
    );
    expect(run.code).toBe(4);
    const report = readWork(r.dir, `runs/${runId(r.dir)}/report.md`);
    expect(report).toContain('\nstatus: "PARTIAL"\n');
    expect(report).toContain('\nending: "failed"\n');
    expect(report).toContain('invalid API key');
    expect(report).toMatch(/\| 2 \| Add farewell\.txt \| under way \|/);
    expect(reportEvent(run.events)).toMatchObject({ status: 'PARTIAL', ending: 'failed' });
  });
});
