// Issue 18, item 12: a merge of the person's outside edit with the agent's version that leaves conflicts is shown
// as conflicts and the run waits for the person (exit 3 headless, the file named); the markers never reach an agent.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseDecision } from '../../../src/modes/decisions.js';
import { conflictRun, MARKERS, MINE, PLAN_V1 } from '../../helpers/merge-conflicts.js';
import { readWork } from '../../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function setup(texts?: Parameters<typeof conflictRun>[0]) {
  const t = conflictRun(texts);
  cleanup = t.repo.cleanup;
  return t;
}

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
    expect(t.prompts().some((p) => MARKERS.test(p))).toBe(false);
    expect(r.events.some((e) => e.event === 'verdict')).toBe(false);
  });

  it('"resolved" while markers remain keeps waiting, and no agent runs', async () => {
    const t = setup();
    await t.toConflicts();
    const before = t.prompts().length;
    const again = await t.run({ decision: parseDecision('resolved') });
    expect(again.code).toBe(3);
    expect(again.events.find((e) => e.event === 'needs_human')).toMatchObject({ kind: 'merge_conflicts' });
    expect(t.prompts().length).toBe(before);
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
    const last = t.prompts().at(-1) ?? '';
    expect(last).toContain('Intro line, agreed by both.');
    expect(t.prompts().some((p) => MARKERS.test(p))).toBe(false);
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

  // state.json is redacted, but the person's version waiting in it is written back by keep-mine verbatim (found by a
  // hostile review: `DB_PASSWORD=postgres` in a plan step became `[REDACTED:secret]` in the person's plan).
  it('keep-mine writes back the person’s plan verbatim, secret-looking lines included', async () => {
    const secretish = 'Intro line, as I want it. Tests log in with password = "test-only-pw".';
    const t = setup({
      v1: PLAN_V1.replace('Add a.txt', 'Add docker-compose.test.yml with DB_PASSWORD=postgres'),
      mine: secretish,
    });
    expect((await t.toConflicts()).code).toBe(3);
    expect((await t.run({ decision: parseDecision('keep-mine') })).code).toBe(3);
    const plan = readWork(t.repo.dir, 'plan.md');
    expect(plan).toContain(secretish);
    expect(plan).toContain('DB_PASSWORD=postgres');
  });

  it('markers put into plan.md by hand are refused before a prompt is built: exit 3 naming plan.md, no agent runs', async () => {
    const t = setup();
    expect((await t.run({ goal: 'g', resume: 'ask' })).code).toBe(3); // plan written, the review waits for a go
    const plan = readFileSync(t.planFile, 'utf8');
    writeFileSync(t.planFile, plan.replace('Intro line.', "<<<<<<< your edit\nA\n=======\nB\n>>>>>>> agent's version"));
    const before = t.prompts().length;
    const r = await t.run({});
    expect(r.code).toBe(3);
    const waiting = r.events.find((e) => e.event === 'needs_human');
    expect(waiting).toMatchObject({ kind: 'failure' });
    expect(String(waiting?.message)).toMatch(/plan\.md has unresolved merge conflict markers/);
    expect(t.prompts().length).toBe(before);
  });
});
