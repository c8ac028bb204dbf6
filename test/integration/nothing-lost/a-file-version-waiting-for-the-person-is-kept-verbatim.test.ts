// state.json is redacted, but a file version waiting for the person's choice (merge conflicts, an outside change) is
// written back into plan.md by that choice: it is kept verbatim, or keep-mine would write `[REDACTED:…]` into the
// person's plan (found by a hostile review: `DB_PASSWORD=postgres` in a plan step became `[REDACTED:secret]`).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import type { FakeScript } from '../../../src/adapters/fake/script.js';
import { parseDecision } from '../../../src/modes/decisions.js';
import { runHeadless, type HeadlessOptions } from '../../../src/modes/headless.js';
import { readWork, sink, tempRepo } from '../../helpers/repo.js';

const V1 =
  '# Plan\n\nIntro line.\n\n## Steps\n1. [ ] Add docker-compose.test.yml with DB_PASSWORD=postgres\n2. [ ] Add b.txt\n';
/** The planner's revision and the person's edit change the same line. */
const V2 = V1.replace('Intro line.', 'Intro line, revised by the planner.');
const MINE = 'Intro line, as I want it. Tests log in with password = "test-only-pw".';
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

describe('a plan version waiting for the person', () => {
  it('keep-mine after merge conflicts writes back the person’s plan verbatim, secrets-looking lines included', async () => {
    const t = setup();
    const r = await t.toConflicts();
    expect(r.code).toBe(3);
    expect((await t.run({ decision: parseDecision('keep-mine') })).code).toBe(3);
    const plan = readWork(t.repo.dir, 'plan.md');
    expect(plan).toContain(MINE);
    expect(plan).toContain('DB_PASSWORD=postgres');
  });
});
