// Issue 18, item 12, in the TUI: a run waiting at the conflicts of a merged outside edit is resumed in the TUI; its
// dialog names the file and shows what is still in conflict, refuses "resolved" while markers remain, goes on once
// they are gone, writes the side the person keeps, and `e` opens $EDITOR on the file.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conflictRun, MARKERS, MINE, PLANNERS_LINE, type ConflictRun } from '../../helpers/merge-conflicts.js';
import { KEY } from '../../unit/ui/ui-helpers.js';
import { runTui, type TuiRun } from './tui-on-a-fake-terminal.js';

const TITLE = 'plan.md: your edit and the planner’s version conflict (1)';
const AGREED = 'Intro line, agreed by both.';

let t: ConflictRun;
let tui: TuiRun | null = null;
const editorEnv = { VISUAL: process.env.VISUAL, EDITOR: process.env.EDITOR };

beforeEach(async () => {
  t = conflictRun();
  await t.toConflicts();
});

afterEach(async () => {
  // Ctrl+C leaves the TUI (state saved), so the session's lock is given back before the repo goes.
  if (tui) {
    await tui.press(KEY.ctrlC);
    await tui.exit;
    tui = null;
  }
  for (const [k, v] of Object.entries(editorEnv)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  t.repo.cleanup();
});

/** The TUI on the waiting run: the resume question answered yes, then the conflicts dialog. */
async function resumeAtTheConflicts() {
  const agents = t.agents();
  tui = runTui({ cwd: t.repo.dir, homeDir: t.repo.home, agents });
  await tui.shows('Resume?');
  await tui.press('y');
  await tui.shows(TITLE);
  const calls = () => agents.planner.turns.length + agents.reviewer.turns.length;
  return { tui, agents, calls };
}

const plan = (): string => readFileSync(t.planFile, 'utf8');

describe('the merge-conflicts dialog in the TUI', { timeout: 180_000 }, () => {
  it('names the conflicted file and shows the conflict still in it, both sides', async () => {
    const { tui } = await resumeAtTheConflicts();
    await tui.shows('<<<<<<< your edit'); // read from the file, which the dialog shows as it is now
    const screen = tui.frame();
    expect(screen).toContain('Still in conflict in plan.md (1 block(s))');
    expect(screen).toContain(MINE);
    expect(screen).toContain(PLANNERS_LINE);
    expect(screen).toContain(">>>>>>> agent's version");
    expect(plan()).toMatch(MARKERS);
  });

  it('"resolved" is refused while markers remain; once they are gone it lets the run go on', async () => {
    const { tui, agents, calls } = await resumeAtTheConflicts();
    await tui.press(KEY.enter);
    await tui.shows('still has conflict markers');
    await tui.shows(TITLE); // asked again, the conflict still shown
    expect(tui.frame()).toContain('<<<<<<< your edit');
    expect(plan()).toMatch(MARKERS);
    expect(calls()).toBe(0);

    // The person resolves the conflict in the file (another editor), then says so.
    writeFileSync(t.planFile, plan().replace(/<<<<<<< [^\n]*\n[\s\S]*?>>>>>>> [^\n]*\n/, `${AGREED}\n`));
    await tui.press(KEY.enter);
    await tui.shows('Next: reviewer');
    expect(plan()).toContain(AGREED);
    expect(plan()).not.toMatch(MARKERS);
    // The review gets the person's resolution, without markers.
    await tui.press(KEY.enter);
    await tui.shows(/Verdict APPROVED/);
    const review = agents.reviewer.turns.at(-1)?.turn.prompt ?? '';
    expect(review).toContain(AGREED);
    expect(review).not.toMatch(MARKERS);
  });

  it.each([
    { choice: 'keep-mine', key: 'y', kept: MINE, dropped: PLANNERS_LINE },
    { choice: 'keep-agent', key: 'a', kept: PLANNERS_LINE, dropped: MINE },
  ])('$choice ($key) puts that side in plan.md, without markers, and the run goes on', async (c) => {
    const { tui } = await resumeAtTheConflicts();
    await tui.press(c.key);
    await tui.shows('Next: reviewer');
    expect(plan()).toContain(c.kept);
    expect(plan()).not.toContain(c.dropped);
    expect(plan()).not.toMatch(MARKERS);
  });

  it('e opens $EDITOR on plan.md; what the editor wrote is what "resolved" goes on with', async () => {
    // A stand-in for the person's editor: it resolves the conflict in the file it is given.
    const editor = path.join(t.repo.home, 'resolve-conflict.cjs');
    writeFileSync(
      editor,
      [
        "const fs = require('node:fs');",
        'const file = process.argv[2];',
        `const text = fs.readFileSync(file, 'utf8').replace(/<<<<<<< [^\\n]*\\n[\\s\\S]*?>>>>>>> [^\\n]*\\n/, ${JSON.stringify(`${AGREED}\n`)});`,
        'fs.writeFileSync(file, text);',
      ].join('\n'),
    );
    chmodSync(editor, 0o755);
    delete process.env.VISUAL;
    process.env.EDITOR = `${process.execPath} ${editor}`;
    const { tui, calls } = await resumeAtTheConflicts();
    await tui.press('e');
    // The dialog stays until the person says how to go on, and shows the file as the editor left it.
    await tui.shows('plan.md has no conflict markers left: Enter goes on with it.');
    expect(tui.frame()).toContain(TITLE);
    expect(plan()).toContain(AGREED);
    expect(plan()).not.toMatch(MARKERS);
    expect(calls()).toBe(0);
    await tui.press(KEY.enter);
    await tui.shows('Next: reviewer');
    expect(plan()).toContain(AGREED);
  });
});
