import { describe, expect, it } from 'vitest';
import { formatLogEntry } from '../../../src/persistence/log-file.js';
import { logFacts, parseLog, planTitle } from '../../../src/core/run-report-log.js';
import {
  REPORT_LIMITS,
  renderRunReport,
  reportStatus,
  reportSummary,
  type RunReportInput,
} from '../../../src/core/run-report.js';
import { addUsage } from '../../../src/core/usage.js';
import type { StepInfo, WorkflowState } from '../../../src/core/types.js';
import { OPTS, stateIn } from '../../helpers/states.js';
import { transition } from '../../../src/core/transition.js';

const ROLES = {
  planner: { agent: 'codex', model: 'gpt-5.5', effort: 'high' },
  reviewer: { agent: 'claude', model: '', effort: '' },
};

/** log.md as persistence/log-file.ts writes it. */
function logOf(entries: { title: string; lines?: string[] }[]): string {
  return `# agent-collab log\n${entries.map((e, i) => formatLogEntry({ ...e, at: new Date(Date.UTC(2026, 0, 1, 0, i)) })).join('')}`;
}

function input(state: WorkflowState, extra: Partial<RunReportInput> = {}, log = ''): RunReportInput {
  return {
    state,
    ending: 'done',
    reason: 'Run finished',
    stoppedAt: null,
    endedAt: '2026-01-01T01:00:00.000Z',
    planTitle: 'Add a --verbose flag',
    log: logFacts(parseLog(log)),
    commits: [],
    files: [],
    roles: ROLES,
    ...extra,
  };
}

/** The section of the report under `## N.` (up to the next `## `). */
function section(report: string, n: number): string {
  const start = report.indexOf(`\n## ${n}. `);
  expect(start).toBeGreaterThan(-1);
  const end = report.indexOf('\n## ', start + 1);
  return report.slice(start, end === -1 ? undefined : end);
}

const steps = (...s: Partial<StepInfo>[]): StepInfo[] =>
  s.map((st, i) => ({ n: i + 1, title: `step ${i + 1}`, done: false, ...st }));

describe('run report status', () => {
  it('is SUCCESS when the run is DONE with every step done, PARTIAL with some done, FAILED with none', () => {
    const all = steps({ done: true, commit: 'a' }, { done: true, commit: null });
    expect(reportStatus(all, 'done')).toBe('SUCCESS');
    expect(reportStatus(steps({ done: true, commit: 'a' }, {}), 'stopped')).toBe('PARTIAL');
    expect(reportStatus(steps({ done: true, commit: 'a' }, { skipped: true }), 'done')).toBe('PARTIAL');
    expect(reportStatus(steps({}, {}), 'stopped')).toBe('FAILED');
    expect(reportStatus(steps({}, {}), 'cancelled')).toBe('FAILED');
    expect(reportStatus([], 'cancelled')).toBe('FAILED');
    // Every step done but the person stopped it (e.g. during the final code review): not a success.
    expect(reportStatus(all, 'stopped')).toBe('PARTIAL');
  });
});

describe('run report rendering', () => {
  it('a DONE run: frontmatter SUCCESS, each step with its commit and tests, the commits, files and usage per role', () => {
    let s = stateIn('DONE', {
      refinedGoal: 'add a --verbose flag that prints each step',
      iteration: 2,
      lastVerdict: 'APPROVED',
      steps: steps(
        { title: 'parse the flag', done: true, commit: 'aaaa1111' },
        { title: 'print', done: true, commit: 'bbbb2222' },
      ),
      budget: { workedMs: 125_000, workedMsByRole: { planner: 120_000, reviewer: 5000 }, raises: {}, noticedAt: {} },
    });
    s = addUsage(s, 'planner', {
      inputTokens: 1000,
      outputTokens: 200,
      cachedTokens: 0,
      costUsd: 0.5,
      durationMs: 60_000,
    });
    s = addUsage(s, 'reviewer', {
      inputTokens: 300,
      outputTokens: 40,
      cachedTokens: 0,
      costUsd: 0.1,
      durationMs: 5000,
    });
    const log = logOf([
      { title: 'Step 1 done: parse the flag', lines: ['commit aaaa111', 'tests: passed (`npm test`)', 'attempts: 1'] },
      { title: 'Step 2 attempt 1: tests failed', lines: ['`npm test` failed'] },
      { title: 'Step 2 done: print', lines: ['commit bbbb222', 'tests: passed (`npm test`)', 'attempts: 2'] },
      { title: 'Run finished', lines: ['2 of 2 step(s) done'] },
    ]);
    const r = input(
      s,
      {
        commits: [
          { hash: 'aaaa1111ffff', subject: '[Step 1] parse the flag' },
          { hash: 'bbbb2222ffff', subject: '[Step 2] print' },
        ],
        files: [
          { path: 'src/cli.ts', change: 'modified', added: 12, removed: 3 },
          { path: 'logo.png', change: 'added', added: null, removed: null },
        ],
      },
      log,
    );
    const text = renderRunReport(r);
    expect(text.startsWith('---\nrun_id: "run-1"\n')).toBe(true);
    expect(text).toContain('\nstatus: "SUCCESS"\n');
    expect(text).toContain('# Run report: SUCCESS');
    expect(section(text, 1)).toContain('**Refined goal**: add a --verbose flag that prints each step');
    const plan = section(text, 2);
    expect(plan).toContain('**Add a --verbose flag**');
    expect(plan).toMatch(/\| 1 \| parse the flag \| committed \| `aaaa1111ffff` \| passed \(`npm test`\) \|/);
    expect(plan).toMatch(/\| 2 \| print \| committed \| `bbbb2222ffff` \| passed \(`npm test`\) \|/);
    expect(section(text, 3)).toContain('| `aaaa1111ffff` | [Step 1] parse the flag |');
    const files = section(text, 4);
    expect(files).toContain('| src/cli.ts | modified | 12 | 3 |');
    expect(files).toContain('| logo.png | added | binary | binary |');
    const usage = section(text, 9);
    expect(usage).toMatch(
      /\| planner \(and executor\) \| codex \| gpt-5\.5 \| high \| 1 \| 1000 \| 200 \| \$0\.5000 \| 2 min 0 s \|/,
    );
    expect(usage).toMatch(
      /\| reviewer \| claude \| CLI default \| CLI default \| 1 \| 300 \| 40 \| \$0\.1000 \| 5 s \|/,
    );
    expect(usage).toMatch(/\| \*\*total\*\* \|.*\| 2 \| 1300 \| 240 \| \$0\.6000 \|/);
    expect(usage).toMatch(/\| \*\*total\*\* \|.*\| \$0\.6000 \| 2 min 5 s \|/);
    expect(reportSummary(r)).toMatchObject({
      status: 'SUCCESS',
      stepsDone: 2,
      stepsTotal: 2,
      commits: 2,
      filesChanged: 2,
      tokens: 1540,
    });
  });

  it('a run stopped after one of two steps: PARTIAL, the stopped step named with its failing tests, the decisions and denied commands listed', () => {
    const s = stateIn('REFINE_GOAL', { steps: steps({ done: true, commit: 'aaaa1111' }, {}) });
    const log = logOf([
      { title: 'Step 1 done: step 1', lines: ['commit aaaa111', 'tests: passed (`npm test`)'] },
      { title: 'Command denied', lines: ['git push origin main', 'blocked by rule "git push"'] },
      { title: 'Person allowed a command once', lines: ['npm install left-pad'] },
      {
        title: 'Command denied',
        lines: ['npm publish', 'the person denied it (rule "npm publish"): do not try variants'],
      },
      { title: 'Step 2 attempt 3: tests failed', lines: ['`npm test` failed'] },
      { title: 'Step 2 needs the person (test_failure)', lines: ['boom'] },
      { title: 'Stopped at step 2 by the person; back to goal refinement (plan kept)' },
    ]);
    const text = renderRunReport(
      input(s, { ending: 'stopped', reason: 'Stopped at step 2 by the person', stoppedAt: 2 }, log),
    );
    expect(text).toContain('\nstatus: "PARTIAL"\n');
    expect(text).toContain('\nending: "stopped"\n');
    expect(section(text, 1)).toContain('stopped by the person — Stopped at step 2 by the person');
    expect(section(text, 2)).toMatch(
      /\| 2 \| step 2 \| stopped here \|\s+\| failed \(attempt 3\): `npm test` failed \|/,
    );
    const decisions = section(text, 7);
    expect(decisions).toContain('Person allowed a command once: npm install left-pad');
    expect(decisions).toContain('Stopped at step 2 by the person');
    expect(decisions).toContain('Person denied a command: npm publish');
    expect(decisions).not.toContain('git push'); // the policy denied that one, not the person
    expect(decisions).not.toContain('Step 2 needs the person'); // what the run asked is not what the person decided
    expect(section(text, 8)).toContain('- `git push origin main` — blocked by rule "git push"');
  });

  it('a cancelled run with nothing done: FAILED, no commits, code review off, per-role usage not recorded', () => {
    const s = stateIn('CANCELLED', { steps: steps({}, {}) });
    const text = renderRunReport(
      input({ ...s, roleUsage: undefined }, { ending: 'cancelled', reason: 'Cancelled by the person in EXECUTE' }),
    );
    expect(text).toContain('\nstatus: "FAILED"\n');
    expect(section(text, 3)).toContain('None: the run committed nothing.');
    expect(section(text, 5)).toContain('Off');
    expect(section(text, 9)).toContain('Per role: not all recorded');
  });

  it('the code review outcome: rounds from the verdicts, and whether the person accepted the code', () => {
    const s = stateIn('DONE', {
      steps: steps({ done: true, commit: 'a1' }),
      codeReview: {
        mode: 'final',
        maxRounds: 3,
        limit: 3,
        round: 3,
        step: null,
        baseTree: null,
        diff: null,
        comments: null,
        tests: [],
        approved: true,
      },
    });
    const log = logOf([
      { title: "Code review of the run's changes, round 1: changes required" },
      { title: "Code review of the run's changes, round 2: changes required" },
      { title: 'Code review cap reached (2 round(s)); waiting for the person to decide' },
      { title: "Person accepted the run's changes as it is (code review round 2)" },
    ]);
    const cr = section(renderRunReport(input(s, {}, log)), 5);
    expect(cr).toContain('**Rounds**: 2 verdict(s)');
    expect(cr).toContain('accepted by the person although the reviewer still asked for changes');
    expect(cr).toContain('**Accepted by the person**: yes');

    // Siding with the planner at a disagreement brief accepts the code against the reviewer's last comments too.
    const sided = logOf([
      { title: "Code review of the run's changes, round 1: changes required" },
      { title: "Code review of the run's changes, round 2: changes required" },
      { title: "Person sided with the planner on L1: withdrawn (the run's code review); code accepted" },
    ]);
    expect(section(renderRunReport(input(s, {}, sided)), 5)).toContain('**Accepted by the person**: yes');
  });

  it('open review entries: listed when given, "no ledger" without them, escaped in table cells', () => {
    const s = stateIn('DONE', { steps: steps({ done: true, commit: 'a1' }) });
    const listed = section(
      renderRunReport(
        input(s, {
          openEntries: [
            { id: 3, status: 'open', text: 'handle a | in the\nfile name' },
            { id: 5, status: 'disputed', text: 'rename the flag' },
          ],
        }),
      ),
      6,
    );
    expect(listed).toContain('| 3 | open | handle a \\| in the file name |');
    expect(listed).toContain('| 5 | disputed | rename the flag |');
    expect(section(renderRunReport(input(s, { openEntries: [] })), 6)).toContain(
      'None: every review entry was resolved.',
    );
    expect(section(renderRunReport(input(s)), 6)).toContain('No review ledger in this run.');
  });

  it('a long run: every step is listed, long lists are cut with a count of what was left out', () => {
    const many = Array.from({ length: 80 }, (_, i) => ({
      n: i + 1,
      title: `step ${i + 1}`,
      done: true,
      commit: `c${i + 1}`,
    }));
    const s = stateIn('DONE', { steps: many });
    const files = Array.from({ length: 1000 }, (_, i) => ({
      path: `src/f${String(i).padStart(4, '0')}.ts`,
      change: 'added' as const,
      added: 1,
      removed: 0,
    }));
    const log = logOf(
      Array.from({ length: 300 }, (_, i) => ({
        title: 'Command denied',
        lines: [`curl http://x/${i}`, 'network'],
      })).concat(Array.from({ length: 250 }, (_, i) => ({ title: `Person retries step ${i} (attempt 2)`, lines: [] }))),
    );
    const text = renderRunReport(input(s, { files }, log));
    expect(text).toContain('\nstatus: "SUCCESS"\n');
    const plan = section(text, 2);
    expect(plan.split('\n').filter((l) => /^\| \d+ \|/.test(l))).toHaveLength(80);
    const f = section(text, 4);
    expect(f).toContain('1000 file(s)');
    expect(f.split('\n').filter((l) => l.startsWith('| src/'))).toHaveLength(REPORT_LIMITS.files);
    expect(f).toContain(`… and ${1000 - REPORT_LIMITS.files} more`);
    expect(section(text, 7)).toContain(`… and ${250 - REPORT_LIMITS.decisions} more`);
    expect(section(text, 8)).toContain(`… and ${300 - REPORT_LIMITS.denied} more`);
    expect(text.length).toBeLessThan(60_000);
  });
});

describe('usage per role', () => {
  it('each agent call adds to the run’s totals and its role’s; each round’s agent time to its role’s', () => {
    let s = stateIn('EXECUTE');
    const call = { inputTokens: 10, outputTokens: 2, cachedTokens: 0, costUsd: 0.01, durationMs: 0 };
    s = transition(s, { type: 'usage', role: 'planner', ...call }, OPTS).state;
    s = transition(s, { type: 'usage', role: 'planner', ...call }, OPTS).state;
    s = transition(s, { type: 'usage', role: 'reviewer', ...call }, OPTS).state;
    s = transition(s, { type: 'worked', ms: 700, role: 'planner', roundEnded: true }, OPTS).state;
    s = transition(s, { type: 'worked', ms: 300, role: 'reviewer', roundEnded: true }, OPTS).state;
    expect(s.usage).toMatchObject({ inputTokens: 30, outputTokens: 6, calls: 3 });
    expect(s.roleUsage?.planner).toMatchObject({ inputTokens: 20, outputTokens: 4, calls: 2 });
    expect(s.roleUsage?.reviewer).toMatchObject({ inputTokens: 10, outputTokens: 2, calls: 1 });
    expect(s.budget?.workedMs).toBe(1000);
    expect(s.budget?.workedMsByRole).toEqual({ planner: 700, reviewer: 300 });
  });
});

describe('run report log facts', () => {
  it('plan title is the first top-level heading of plan.md', () => {
    expect(planTitle('intro\n## Steps\n# The plan\n# Other')).toBe('The plan');
    expect(planTitle(null)).toBeNull();
  });

  it('a multi-line bullet stays with its entry; the last test result of a step wins', () => {
    const facts = logFacts(
      parseLog(
        logOf([
          { title: 'Step 1 attempt 1: tests failed', lines: ['first\nsecond'] },
          { title: 'Step 1 done: s', lines: ['tests: passed (`make check`)'] },
        ]),
      ),
    );
    expect(facts.tests.get(1)).toBe('passed (`make check`)');
    expect(parseLog(logOf([{ title: 'x', lines: ['a\nb'] }]))[0]?.lines).toEqual(['a\nb']);
  });
});
