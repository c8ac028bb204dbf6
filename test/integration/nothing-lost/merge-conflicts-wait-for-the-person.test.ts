// Issue 18, item 12: a merge of the person's outside edit with the agent's version that leaves conflicts is shown
// as conflicts and the run waits for the person (exit 3 headless, the file named); the markers never reach an agent.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import type { FakeScript } from '../../../src/adapters/fake/script.js';
import { parseDecision } from '../../../src/modes/decisions.js';
import { runHeadless, type HeadlessOptions } from '../../../src/modes/headless.js';
import { readWork, sink, tempRepo } from '../../helpers/repo.js';

const V1 = '# Plan\n\nIntro line.\n\n## Steps\n1. [ ] Add a.txt\n2. [ ] Add b.txt\n';
/** The planner's revision and the person's edit change the same line. */
const V2 = V1.replace('Intro line.', 'Intro line, revised by the planner.');
const MINE = 'Intro line, as I want it.';
const planner: FakeScript = {
  rules: [
    { when: { kind: 'write_plan' }, do: { text: V1 } },
    { when: { kind: 'respond' }, do: { text: V2 } },
  ],
};
const reviewer: FakeScript = {
  rules: [
    { when: { iteration: 1 }, do: { verdict: 'CHANGES_REQUIRED', text: '## Comments\n1. Revise the intro.' } },
    { do: { verdict: 'APPROVED' } },
  ],
};

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function setup() {
  const repo = tempRepo('[safety]\nsandbox = "off"\n');
  cleanup = repo.cleanup;
  /** Every prompt any agent got, across runs. */
  const prompts: string[] = [];
  const run = async (opts: Partial<HeadlessOptions>) => {
    const out = sink();
    const agents = {
      planner: new FakeAgent('planner', planner, { sessionPrefix: 'p' }),
      reviewer: new FakeAgent('reviewer', reviewer, { sessionPrefix: 'r' }),
    };
    const code = await runHeadless({
      cwd: repo.dir,
      homeDir: repo.home,
      auto: false,
      json: true,
      resume: 'resume',
      agents,
      stdout: out,
      stderr: sink(),
      ...opts,
    });
    prompts.push(...[...agents.planner.turns, ...agents.reviewer.turns].map((t) => t.turn.prompt));
    return { code, events: out.lines() };
  };
  const planFile = path.join(repo.dir, '.agent-collab', 'plan.md');
  /** Runs to the merge of a conflicting edit: the run then waits at the conflicts. */
  const toConflicts = async () => {
    expect((await run({ goal: 'g', resume: 'ask' })).code).toBe(3);
    expect((await run({})).code).toBe(3); // review: CHANGES_REQUIRED
    writeFileSync(planFile, readFileSync(planFile, 'utf8').replace('Intro line.', MINE));
    expect((await run({})).code).toBe(3); // the planner revises: changed outside
    const merged = await run({ decision: parseDecision('merge') });
    return merged;
  };
  const reviewsSoFar = () => prompts.filter((p) => p.includes('Intro line')).length;
  return { repo, run, toConflicts, planFile, prompts, reviewsSoFar };
}

const MARKERS = /^(<<<<<<<|>>>>>>>) /m;

describe('a merge of an outside edit that leaves conflicts', () => {
  it('waits for the person (exit 3, needs_human merge_conflicts naming plan.md); the file shows the conflicts; no agent saw them', async () => {
    const t = setup();
    const r = await t.toConflicts();
    expect(r.code).toBe(3);
    const waiting = r.events.find((e) => e.event === 'needs_human');
    expect(waiting).toMatchObject({ kind: 'merge_conflicts', file: 'plan', role: 'planner', conflicts: 1 });
    expect(String(waiting?.hint)).toMatch(/plan\.md has 1 conflict\(s\).*--decide resolved \| keep-mine \| keep-agent/);
    const plan = readWork(t.repo.dir, 'plan.md');
    expect(plan).toMatch(/^<<<<<<< your edit$/m);
    expect(plan).toContain(MINE);
    expect(plan).toContain('revised by the planner');
    // The person's version is kept whatever comes next.
    const backups = readdirSync(path.join(t.repo.dir, '.agent-collab', 'backups'));
    expect(
      backups.map((b) => readFileSync(path.join(t.repo.dir, '.agent-collab', 'backups', b), 'utf8')).join(),
    ).toContain(MINE);
    expect(t.prompts.some((p) => MARKERS.test(p))).toBe(false);
    expect(r.events.some((e) => e.event === 'verdict')).toBe(false);
  });

  it('"resolved" while markers remain keeps waiting, and no agent runs', async () => {
    const t = setup();
    await t.toConflicts();
    const before = t.prompts.length;
    const again = await t.run({ decision: parseDecision('resolved') });
    expect(again.code).toBe(3);
    expect(again.events.find((e) => e.event === 'needs_human')).toMatchObject({ kind: 'merge_conflicts' });
    expect(t.prompts.length).toBe(before);
  });

  it('resolved in the file, then "resolved": the review gets the person’s resolution, without markers', async () => {
    const t = setup();
    await t.toConflicts();
    const text = readFileSync(t.planFile, 'utf8').replace(
      /<<<<<<< your edit\n[\s\S]*?>>>>>>> agent's version\n/,
      'Intro line, agreed by both.\n',
    );
    writeFileSync(t.planFile, text);
    const go = await t.run({ decision: parseDecision('resolved') });
    expect(go.code).toBe(3);
    expect(readWork(t.repo.dir, 'plan.md')).toContain('Intro line, agreed by both.');
    expect(readWork(t.repo.dir, 'plan.md')).not.toMatch(MARKERS);
    // This invocation's one round: the review of the resolved plan.
    expect(go.events.find((e) => e.event === 'verdict')).toMatchObject({ verdict: 'APPROVED' });
    const last = t.prompts.at(-1) ?? '';
    expect(last).toContain('Intro line, agreed by both.');
    expect(t.prompts.some((p) => MARKERS.test(p))).toBe(false);
  });

  it('keep-mine goes on with the person’s version; keep-agent with the agent’s', async () => {
    const mine = setup();
    await mine.toConflicts();
    expect((await mine.run({ decision: parseDecision('keep-mine') })).code).toBe(3);
    const planMine = readWork(mine.repo.dir, 'plan.md');
    expect(planMine).toContain(MINE);
    expect(planMine).not.toMatch(MARKERS);
    cleanup?.();

    const theirs = setup();
    await theirs.toConflicts();
    expect((await theirs.run({ decision: parseDecision('keep-agent') })).code).toBe(3);
    const planAgent = readWork(theirs.repo.dir, 'plan.md');
    expect(planAgent).toContain('revised by the planner');
    expect(planAgent).not.toMatch(MARKERS);
    expect(existsSync(path.join(theirs.repo.dir, '.agent-collab', 'backups'))).toBe(true);
  });

  it('markers put into plan.md by hand are refused before a prompt is built: exit 3 naming plan.md, no agent runs', async () => {
    const t = setup();
    expect((await t.run({ goal: 'g', resume: 'ask' })).code).toBe(3); // plan written, the review waits for a go
    const plan = readFileSync(t.planFile, 'utf8');
    writeFileSync(t.planFile, plan.replace('Intro line.', "<<<<<<< your edit\nA\n=======\nB\n>>>>>>> agent's version"));
    const before = t.prompts.length;
    const r = await t.run({});
    expect(r.code).toBe(3);
    const waiting = r.events.find((e) => e.event === 'needs_human');
    expect(waiting).toMatchObject({ kind: 'failure' });
    expect(String(waiting?.message)).toMatch(/plan\.md has unresolved merge conflict markers/);
    expect(t.prompts.length).toBe(before);
  });
});
