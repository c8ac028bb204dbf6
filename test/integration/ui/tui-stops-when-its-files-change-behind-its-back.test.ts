// Issue 18, item 11, in the TUI: `.agent-collab/` deleted, or state.json replaced, while a round runs stops the run
// as headless does: the round under way is stopped, no other starts, agent-collab's files are written back, the
// screen says what happened and what to do, and leaving exits 3.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import { meddlingReviewer } from '../../helpers/meddling-agent.js';
import { gitLog, tempRepo } from '../../helpers/repo.js';
import { KEY } from '../../unit/ui/ui-helpers.js';
import { runTui } from './tui-on-a-fake-terminal.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

const PLAN = '# Plan\n\nThe plan agent-collab wrote.\n\n## Steps\n1. [ ] Add a.txt\n';

/**
 * An auto-mode run in the TUI whose reviewer does `meddle` as its turn starts. The reviewer asks for changes, so a
 * run that went on would give the planner its next round at once.
 */
function startWith(meddle: (work: string) => void) {
  const repo = tempRepo('[safety]\nsandbox = "off"\n');
  cleanup = repo.cleanup;
  const work = path.join(repo.dir, '.agent-collab');
  const planner = new FakeAgent('planner', { rules: [{ when: { kind: 'write_plan' }, do: { text: PLAN } }] });
  const reviewer = meddlingReviewer(() => meddle(work), 'CHANGES_REQUIRED');
  const tui = runTui({ cwd: repo.dir, homeDir: repo.home, agents: { planner, reviewer }, goal: 'g', mode: 'auto' });
  const turns = () => ({ planner: planner.turns.length, reviewer: reviewer.turns.length });
  return { repo, work, tui, turns };
}

/** The person tries to go on (Enter, auto mode), then leaves with q: the exit code runInteractive returns. */
async function tryToGoOnThenLeave(tui: ReturnType<typeof runTui>): Promise<number> {
  await tui.press(KEY.enter, 'a', 'q');
  return tui.exit;
}

describe('the TUI when agent-collab’s files change behind the run’s back', { timeout: 120_000 }, () => {
  it('.agent-collab/ deleted during a round: the round stops, none follows, the files are back, exit 3', async () => {
    const t = startWith((work) => rmSync(work, { recursive: true, force: true }));
    await t.tui.shows('The run stopped');
    const screen = t.tui.frame();
    expect(screen).toMatch(
      /\.agent-collab\/ was deleted during the run; agent-collab wrote back its state\.json, plan\.md/,
    );
    expect(screen).toContain('q: leave (exit code 3)');
    expect(screen).not.toMatch(/^\s+at .*:\d+:\d+\)?$/m); // one message, no stack trace
    expect(await tryToGoOnThenLeave(t.tui)).toBe(3);

    // The review round was stopped before its answer was written, and nothing ran after it.
    expect(t.turns()).toEqual({ planner: 1, reviewer: 1 });
    expect(existsSync(path.join(t.work, 'comments.md'))).toBe(false);
    expect(gitLog(t.repo.dir)).toEqual(['initial']);
    // What agent-collab holds copies of is back, so the run can be resumed where it stopped.
    const state = JSON.parse(readFileSync(path.join(t.work, 'state.json'), 'utf8')) as { phase: string };
    expect(state.phase).toBe('REVIEW');
    expect(readFileSync(path.join(t.work, 'plan.md'), 'utf8')).toContain('The plan agent-collab wrote.');
  });

  it('state.json replaced during a round: the other file is kept aside, agent-collab’s state is back, exit 3', async () => {
    const theirs = '{"someone": "else"}\n';
    const t = startWith((work) => writeFileSync(path.join(work, 'state.json'), theirs));
    await t.tui.shows('The run stopped');
    expect(t.tui.frame()).toMatch(/state\.json was replaced by another program during the run; that file is kept as/);
    expect(await tryToGoOnThenLeave(t.tui)).toBe(3);

    expect(t.turns()).toEqual({ planner: 1, reviewer: 1 });
    expect(existsSync(path.join(t.work, 'comments.md'))).toBe(false);
    const aside = readdirSync(t.work).filter((n) => n.startsWith('state.json.outside-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(path.join(t.work, aside[0] ?? ''), 'utf8')).toBe(theirs);
    const state = JSON.parse(readFileSync(path.join(t.work, 'state.json'), 'utf8')) as { phase: string };
    expect(state.phase).toBe('REVIEW');
  });
});
