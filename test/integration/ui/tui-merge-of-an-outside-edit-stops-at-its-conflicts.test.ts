// Issue 20, defect 2: in the TUI, "merge" of an outside edit that conflicts with the planner's revision went on
// silently (the Plan tab showed <<<<<<< while the screen offered "Enter: let it through"). The merge now stops at
// the merge-conflicts question of the decisions table: no round is offered or run, no agent sees a marker, and the
// run goes on only with the side (or the resolution) the person chose.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conflictRun, MARKERS, MINE, PLANNERS_LINE, type ConflictRun } from '../../helpers/merge-conflicts.js';
import { KEY, sleep } from '../../unit/ui/ui-helpers.js';
import { runTui, type TuiRun } from './tui-on-a-fake-terminal.js';

const CHANGED_OUTSIDE = 'plan.md changed outside agent-collab while the planner wrote a new version';
const CONFLICTS = 'plan.md: your edit and the planner’s version conflict (1)';

let t: ConflictRun;
let tui: TuiRun | null = null;

beforeEach(async () => {
  t = conflictRun();
  // Headless up to the planner's revision meeting the person's edit of the same line.
  expect((await t.run({ goal: 'g', resume: 'ask' })).code).toBe(3);
  expect((await t.run({})).code).toBe(3);
  writeFileSync(t.planFile, readFileSync(t.planFile, 'utf8').replace('Intro line.', MINE));
  expect((await t.run({})).code).toBe(3);
});

afterEach(async () => {
  if (tui) {
    await tui.press(KEY.ctrlC);
    await tui.exit;
    tui = null;
  }
  t.repo.cleanup();
});

const plan = (): string => readFileSync(t.planFile, 'utf8');

describe('merging an outside edit in the TUI', { timeout: 180_000 }, () => {
  it('m with conflicts stops at the conflicts question; nothing runs until the person picks a side', async () => {
    const agents = t.agents();
    const calls = () => agents.planner.turns.length + agents.reviewer.turns.length;
    tui = runTui({ cwd: t.repo.dir, homeDir: t.repo.home, agents });
    await tui.shows('Resume?');
    await tui.press('y');
    await tui.shows(CHANGED_OUTSIDE);
    await tui.press('m');
    await tui.shows(CONFLICTS);
    expect(tui.frame()).not.toContain('let it through');
    expect(plan()).toMatch(MARKERS); // the merge, markers and all, is in the file for the person
    // Enter ("resolved") is refused while the markers are there; no agent is called meanwhile.
    await tui.press(KEY.enter);
    await tui.shows('still has conflict markers');
    await tui.shows(CONFLICTS); // asked again
    expect(tui.frame()).not.toContain('let it through');
    await sleep(300);
    expect(tui.frame()).toContain(CONFLICTS);
    expect(calls()).toBe(0);

    await tui.press('a'); // keep the agent's version
    await tui.shows('Next: reviewer');
    expect(plan()).toContain(PLANNERS_LINE);
    expect(plan()).not.toMatch(MARKERS);
    await tui.press(KEY.enter);
    await tui.shows(/Verdict APPROVED/);
    expect(t.prompts().some((p) => MARKERS.test(p))).toBe(false);
    expect(agents.reviewer.turns.at(-1)?.turn.prompt).toContain(PLANNERS_LINE);
  });
});
