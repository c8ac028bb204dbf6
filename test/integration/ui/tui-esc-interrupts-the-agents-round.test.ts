// Issue 20 (habits, as in Claude Code): Esc while an agent works interrupts its round — the agent is stopped, its
// unfinished answer is not used, the phase stays — and the person runs it again with a message added to its prompt.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import { KEY, waitFor } from '../../unit/ui/ui-helpers.js';
import { tuiInTempRepos } from './tui-on-a-fake-terminal.js';

const PLAN = '# Task: Greet\n\n## Steps\n1. [ ] Add greeting.txt\n';

const tuis = tuiInTempRepos();

describe('Esc in the TUI', { timeout: 120_000 }, () => {
  it('interrupts the planner’s round; m + a message runs it again with the message, and auto mode goes on', async () => {
    const planner = new FakeAgent('planner', {
      rules: [
        { when: { kind: 'write_plan' }, times: 1, do: { delayMs: 60_000, text: '# Task: the slow plan' } },
        { when: { kind: 'write_plan' }, do: { text: PLAN } },
      ],
    });
    const reviewer = new FakeAgent('reviewer', { rules: [{ do: { delayMs: 60_000, verdict: 'APPROVED' } }] });
    const tui = tuis.start('[safety]\nsandbox = "off"\n[review]\ncode = "off"\n', {
      agents: { planner, reviewer },
      goal: 'greet',
      mode: 'auto',
    });
    const repo = { dir: tui.dir };
    await tui.shows('writing the plan');
    await tui.shows('Esc interrupt');
    await waitFor(() => expect(planner.turns).toHaveLength(1), 30_000); // the planner is at work

    await tui.press(KEY.esc);
    await tui.shows('You interrupted the planner (writing the plan)');
    expect(tui.frame()).toContain('WRITE_PLAN');
    await tui.press('m');
    await tui.shows('message ›');
    await tui.press(...'keep it short');
    await tui.press(KEY.enter);

    // The round ran again with the message after its task; the stopped answer never reached plan.md; the run went
    // on by itself (auto mode kept) to the review.
    await waitFor(() => expect(reviewer.turns).toHaveLength(1), 30_000);
    const writes = planner.turns.filter((t) => t.turn.meta.kind === 'write_plan');
    expect(writes).toHaveLength(2);
    expect(writes[0]?.turn.prompt).not.toContain('keep it short');
    expect(writes[1]?.turn.prompt).toMatch(/interrupted your previous attempt[\s\S]*keep it short\n$/);
    const plan = readFileSync(path.join(repo.dir, '.agent-collab', 'plan.md'), 'utf8');
    expect(plan).toContain('# Task: Greet');
    expect(plan).not.toContain('the slow plan');
    expect(readFileSync(path.join(repo.dir, '.agent-collab', 'log.md'), 'utf8')).toContain(
      "Person interrupted the planner's round (write_plan)",
    );
  });
});
