// Issue 20, defect 12: on the resume prompt a dismiss key (Esc) must never be the destructive choice. Esc leaves
// with the unfinished run where it was (state.json, plan.md untouched, nothing archived); only `a` archives it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { conflictRun, type ConflictRun } from '../../helpers/merge-conflicts.js';
import { KEY } from '../../unit/ui/ui-helpers.js';
import { runTui, type TuiRun } from './tui-on-a-fake-terminal.js';

let t: ConflictRun;
let tui: TuiRun | null = null;

beforeEach(async () => {
  t = conflictRun();
  await t.toConflicts(); // an unfinished run, waiting for the person
});

afterEach(async () => {
  if (tui) {
    await tui.press(KEY.ctrlC);
    await tui.exit;
    tui = null;
  }
  t.repo.cleanup();
});

const dir = (): string => path.join(t.repo.dir, '.agent-collab');
const archived = (): string[] => {
  const history = path.join(dir(), 'history');
  return existsSync(history) ? readdirSync(history) : [];
};
const snapshot = () => ({
  state: readFileSync(path.join(dir(), 'state.json'), 'utf8'),
  plan: readFileSync(t.planFile, 'utf8'),
});

describe('the resume prompt in the TUI', { timeout: 120_000 }, () => {
  it('Esc leaves with the unfinished run untouched: state.json and plan.md stay, nothing is archived', async () => {
    const before = snapshot();
    expect(archived()).toEqual([]);
    const run = runTui({ cwd: t.repo.dir, homeDir: t.repo.home, agents: t.agents() });
    await run.shows('Resume?');
    await run.press(KEY.esc);
    expect(await run.exit).toBe(130);
    expect(snapshot()).toEqual(before);
    expect(archived()).toEqual([]);
  });

  it('a archives the unfinished run and starts a new one', async () => {
    tui = runTui({ cwd: t.repo.dir, homeDir: t.repo.home, agents: t.agents() });
    await tui.shows('Resume?');
    await tui.press('a');
    await tui.shows('waiting for your goal');
    expect(archived()).toHaveLength(1);
  });
});
