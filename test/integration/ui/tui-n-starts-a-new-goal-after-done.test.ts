// Issue 20 (habits): once a run is DONE, `n` starts a new goal in the same TUI: the finished run goes to history/,
// a new run waits at goal refinement, and the new goal reaches the planner — no quitting and restarting.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import { gitLog } from '../../helpers/repo.js';
import { KEY, waitFor } from '../../unit/ui/ui-helpers.js';
import { tuiInTempRepos } from './tui-on-a-fake-terminal.js';

const PLAN = '# Task: Greet\n\n## Steps\n1. [ ] Add greeting.txt\n';

const tuis = tuiInTempRepos();

describe('after DONE', { timeout: 180_000 }, () => {
  it('n archives the finished run and starts a new one at goal refinement; its goal reaches the planner', async () => {
    const planner = new FakeAgent('planner', {
      rules: [
        { when: { kind: 'write_plan' }, do: { text: PLAN } },
        { when: { step: 1 }, do: { writeFiles: { 'greeting.txt': 'hello\n' }, text: 'Summary: add greeting.txt' } },
      ],
    });
    const reviewer = new FakeAgent('reviewer', { rules: [{ do: { verdict: 'APPROVED' } }] });
    const tui = tuis.start('[safety]\nsandbox = "off"\n[review]\ncode = "off"\n[test]\ndefault_command = "true"\n', {
      agents: { planner, reviewer },
      goal: 'greet',
      mode: 'auto',
    });
    const repo = { dir: tui.dir };
    await tui.shows('executing step 1/1'); // execution starts on the person's go
    await tui.press(KEY.enter);
    await tui.shows(/\bDONE\b/);
    await tui.shows('n new goal');
    const firstRun = JSON.parse(readFileSync(path.join(repo.dir, '.agent-collab', 'state.json'), 'utf8')) as {
      runId: string;
    };

    await tui.press('n');
    await tui.shows('waiting for your goal');
    await tui.shows('Archived the finished run to');
    const history = path.join(repo.dir, '.agent-collab', 'history');
    expect(existsSync(history) ? readdirSync(history) : []).toHaveLength(1);
    expect(gitLog(repo.dir)[0]).toBe('[Step 1] add greeting.txt');

    await tui.press(...'say goodbye', KEY.enter);
    await waitFor(() => expect(planner.turns.at(-1)?.turn.meta.kind).toBe('refine'), 30_000);
    expect(planner.turns.at(-1)?.turn.prompt).toContain('say goodbye');
    const second = JSON.parse(readFileSync(path.join(repo.dir, '.agent-collab', 'state.json'), 'utf8')) as {
      runId: string;
      phase: string;
    };
    expect(second.runId).not.toBe(firstRun.runId);
    expect(second.phase).toBe('REFINE_GOAL');
  });
});
