// `[review] code = "each"`: a step's diff is reviewed after its tests pass and before its commit, changes required
// give the step another attempt carrying the comments; the round cap and an unreadable verdict ask the person
// (headless: exit 3 with a needs_human event) and `--decide` goes on from there.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import type { FakeRule } from '../../../src/adapters/fake/script.js';
import { gitLog, readWork } from '../../helpers/repo.js';
import { codeVerdicts, repoWithPassingTests, runAuto, show } from './helpers.js';

const PLAN = '# Task: Greet\n\n## Steps\n1. [ ] Add greeting.txt\n2. [ ] Add name.txt\n';
const approve: FakeRule = { do: { verdict: 'APPROVED', text: '## Comments\n1. Fine.' } };
const changes: FakeRule = {
  when: { kind: 'code_review' },
  do: { verdict: 'CHANGES_REQUIRED', text: '## Comments\n1. Say hello, not hi.' },
};

function planner(first = 'hi\n'): FakeAgent {
  return new FakeAgent('planner', {
    rules: [
      { when: { kind: 'write_plan' }, do: { text: PLAN } },
      { when: { step: 1 }, times: 1, do: { writeFiles: { 'greeting.txt': first }, text: 'Summary: add greeting' } },
      { when: { step: 1 }, do: { writeFiles: { 'greeting.txt': 'hello\n' }, text: 'Summary: add greeting' } },
      { when: { step: 2 }, do: { writeFiles: { 'name.txt': 'ada\n' }, text: 'Summary: add name' } },
      { when: { kind: 'code_fix' }, do: { text: '## Fix steps\n1. Say hello in greeting.txt\n' } },
      { when: { step: 3 }, do: { writeFiles: { 'greeting.txt': 'hello\n' }, text: 'Summary: say hello' } },
    ],
  });
}

/** The `<diff>` part of a code review prompt. */
function diffOf(prompt: string | undefined): string {
  return /<diff>([\s\S]*?)<\/diff>/.exec(prompt ?? '')?.[1] ?? '';
}

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('code review of each step', { timeout: 120_000 }, () => {
  it('reviews a step before its commit; changes required → another attempt with the comments, committed once approved', async () => {
    const repo = repoWithPassingTests('[review]\ncode = "each"\n');
    cleanup = repo.cleanup;
    const p = planner();
    const reviewer = new FakeAgent('reviewer', {
      rules: [{ ...changes, when: { kind: 'code_review', step: 1 }, times: 1 }, approve],
    });
    const { code, events } = await runAuto(repo, { planner: p, reviewer });

    expect(code).toBe(0);
    expect(gitLog(repo.dir)).toEqual(['[Step 2] add name', '[Step 1] add greeting', 'tests', 'initial']);
    // The step's one commit holds the reviewed version, not the first attempt's.
    expect(show(repo.dir, 'HEAD~1:greeting.txt')).toBe('hello\n');
    expect(codeVerdicts(events)).toEqual(['1:1 CHANGES_REQUIRED', '1:2 APPROVED', '2:1 APPROVED']);

    const reviews = reviewer.turns.filter((t) => t.turn.meta.kind === 'code_review');
    expect(reviews[0]?.turn.prompt).toContain('+hi');
    expect(reviews[0]?.turn.prompt).toContain('`npm test` passed');
    expect(reviews[1]?.turn.prompt).toContain('+hello');
    // Step 2's review reads only step 2's diff.
    expect(reviews[2]?.turn.prompt).toContain('+ada');
    expect(diffOf(reviews[2]?.turn.prompt)).not.toContain('greeting.txt');

    const retry = p.turns.filter((t) => t.turn.meta.kind === 'execute_step' && t.turn.meta.step === 1)[1];
    expect(retry?.method).toBe('resume');
    expect(retry?.turn.prompt).toContain('Say hello, not hi.');
    expect(retry?.turn.prompt).toContain('attempt 2 of the step');

    // The review came before the commit: log.md records the approval first.
    const log = readWork(repo.dir, 'log.md');
    expect(log.indexOf('Code review of step 1, round 2: approved')).toBeGreaterThan(0);
    expect(log.indexOf('Code review of step 1, round 2: approved')).toBeLessThan(log.indexOf('Step 1 done'));
  });
});

describe('the code review cap and unclear verdicts', { timeout: 120_000 }, () => {
  it('the cap reached → exit 3 with a needs_human event; --decide accept ends the run with the code as it is', async () => {
    const repo = repoWithPassingTests('[review]\nmax_code_rounds = 1\n');
    cleanup = repo.cleanup;
    const reviewer = new FakeAgent('reviewer', { rules: [changes, approve] });
    const first = await runAuto(repo, { planner: planner('hello\n'), reviewer });

    expect(first.code).toBe(3);
    const asked = first.events.find((e) => e.event === 'needs_human');
    expect(asked).toMatchObject({ phase: 'CODE_REVIEW', kind: 'code_review_cap', round: 1, step: null });
    const ids = (asked?.choices as Array<{ id: string }>).map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining(['accept', 'continue', 'edit', 'stop']));
    expect(gitLog(repo.dir)).toEqual(['[Step 2] add name', '[Step 1] add greeting', 'tests', 'initial']);

    const second = await runAuto(
      repo,
      { planner: planner('hello\n'), reviewer },
      { resume: 'resume', goal: undefined, decision: { word: 'accept' } },
    );
    expect(second.code).toBe(0);
    expect(second.events.at(-1)).toMatchObject({ event: 'done', phase: 'DONE' });
    expect(readWork(repo.dir, 'log.md')).toContain("Person accepted the run's changes as it is");
    // Nothing more was reviewed or committed.
    expect(reviewer.turns.filter((t) => t.turn.meta.kind === 'code_review')).toHaveLength(1);
    expect(gitLog(repo.dir)[0]).toBe('[Step 2] add name');
  });

  it('the cap reached, --decide continue → one more round: fix steps, their commit, the review again', async () => {
    const repo = repoWithPassingTests('[review]\nmax_code_rounds = 1\n');
    cleanup = repo.cleanup;
    const reviewer = new FakeAgent('reviewer', { rules: [{ ...changes, times: 1 }, approve] });
    const first = await runAuto(repo, { planner: planner(), reviewer });
    expect(first.code).toBe(3);

    const p = planner();
    const second = await runAuto(
      repo,
      { planner: p, reviewer },
      { resume: 'resume', goal: undefined, decision: { word: 'continue', rounds: 1 } },
    );
    expect(second.code).toBe(0);
    expect(gitLog(repo.dir)[0]).toBe('[Step 3] say hello');
    expect(show(repo.dir, 'HEAD:greeting.txt')).toBe('hello\n');
    expect(codeVerdicts(second.events)).toEqual(['-:2 APPROVED']);
  });

  it('an unreadable verdict is asked again once, then the person decides; --decide retry asks the reviewer anew', async () => {
    const repo = repoWithPassingTests('');
    cleanup = repo.cleanup;
    const reviewer = new FakeAgent('reviewer', {
      rules: [{ when: { kind: 'code_review' }, times: 2, do: { text: 'Verdict: APPROVED' } }, approve],
    });
    const first = await runAuto(repo, { planner: planner('hello\n'), reviewer });

    expect(first.code).toBe(3);
    expect(codeVerdicts(first.events)).toEqual(['-:1 UNCLEAR', '-:1 UNCLEAR']);
    expect(first.events.find((e) => e.event === 'needs_human')).toMatchObject({
      kind: 'unclear_verdict',
      action: { kind: 'code_review', step: null, reask: true },
    });
    const reask = reviewer.turns.filter((t) => t.turn.meta.kind === 'code_review')[1];
    expect(reask?.turn.prompt).toMatch(/^Your previous answer could not be read as a verdict/);

    const second = await runAuto(
      repo,
      { planner: planner('hello\n'), reviewer },
      { resume: 'resume', goal: undefined, decision: { word: 'retry' } },
    );
    expect(second.code).toBe(0);
    expect(codeVerdicts(second.events)).toEqual(['-:1 APPROVED']);
  });
});
