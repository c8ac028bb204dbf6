// plan.md edited by the person outside agent-collab while the planner writes a new version: the run stops for
// the person, who keeps their version, takes the agent's (theirs saved as a backup) or merges both.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../src/adapters/fake/fake-agent.js';
import type { FakeScript } from '../../src/adapters/fake/script.js';
import { parseDecision } from '../../src/modes/decisions.js';
import { runHeadless, type HeadlessOptions } from '../../src/modes/headless.js';
import { readWork, sink, tempRepo } from '../helpers/repo.js';

const V1 = '# Plan\n\nIntro line.\n\n## Steps\n1. [ ] Add a.txt\n2. [ ] Add b.txt\n\n## Notes\nNone yet.\n';
/** The planner's revision changes the intro; the person's edit changes the notes. */
const V2 = V1.replace('Intro line.', 'Intro line, revised by the planner.');
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
  const repo = tempRepo();
  cleanup = repo.cleanup;
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
    return { code, events: out.lines() };
  };
  const planFile = path.join(repo.dir, '.agent-collab', 'plan.md');
  /** Runs to the point where the planner's revision meets the person's edit. */
  const toConflict = async () => {
    expect((await run({ goal: 'g', resume: 'ask' })).code).toBe(3); // plan written, waiting for the review's go
    expect((await run({})).code).toBe(3); // review: CHANGES_REQUIRED
    writeFileSync(planFile, readFileSync(planFile, 'utf8').replace('None yet.', 'Keep the README short (my note).'));
    const r = await run({}); // the planner revises
    expect(r.code).toBe(3);
    expect(r.events.find((e) => e.event === 'needs_human')).toMatchObject({
      kind: 'external_change',
      file: 'plan',
      role: 'planner',
    });
    // Nothing was lost yet: the person's edit is still in plan.md.
    expect(readWork(repo.dir, 'plan.md')).toContain('my note');
  };
  return { repo, run, toConflict };
}

describe('plan.md changed outside while the planner wrote a new version', () => {
  it('merge keeps both changes and sends the merged plan to review', async () => {
    const t = setup();
    await t.toConflict();
    const merged = await t.run({ decision: parseDecision('merge') });
    expect(merged.code).toBe(3);
    const plan = readWork(t.repo.dir, 'plan.md');
    expect(plan).toContain('Intro line, revised by the planner.');
    expect(plan).toContain('Keep the README short (my note).');
    expect(plan).not.toContain('<<<<<<<');
    expect(readWork(t.repo.dir, 'log.md')).toMatch(/plan\.md changed outside agent-collab: merge[\s\S]*merged cleanly/);
  });

  it("discard keeps the person's version", async () => {
    const t = setup();
    await t.toConflict();
    expect((await t.run({ decision: parseDecision('discard') })).code).toBe(3);
    const plan = readWork(t.repo.dir, 'plan.md');
    expect(plan).toContain('my note');
    expect(plan).not.toContain('revised by the planner');
  });

  it("overwrite takes the agent's version and saves the person's as a backup", async () => {
    const t = setup();
    await t.toConflict();
    expect((await t.run({ decision: parseDecision('overwrite') })).code).toBe(3);
    expect(readWork(t.repo.dir, 'plan.md')).toContain('revised by the planner');
    const backups = path.join(t.repo.dir, '.agent-collab', 'backups');
    expect(existsSync(backups)).toBe(true);
    const [backup] = readdirSync(backups);
    expect(readFileSync(path.join(backups, backup ?? ''), 'utf8')).toContain('my note');
  });

  it('no edit outside: no question', async () => {
    const t = setup();
    expect((await t.run({ goal: 'g', resume: 'ask' })).code).toBe(3);
    expect((await t.run({})).code).toBe(3);
    const r = await t.run({});
    expect(r.events.find((e) => e.event === 'needs_human')).toMatchObject({ kind: 'go' });
    expect(readWork(t.repo.dir, 'plan.md')).toContain('revised by the planner');
  });
});
