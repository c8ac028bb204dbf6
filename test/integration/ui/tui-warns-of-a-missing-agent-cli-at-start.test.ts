// Issue 20, defect 14: with a role's CLI not installed, the TUI says so (with the install hint) as it starts, before
// any message is sent, instead of failing only after the first one.
import { describe, expect, it } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import { tuiInTempRepos, type TuiRun } from './tui-on-a-fake-terminal.js';

const tuis = tuiInTempRepos();

/** The TUI with the planner on codex (the default role), whose command is `codexCommand`, and a fake reviewer. */
function start(codexCommand: string): TuiRun {
  const reviewer = new FakeAgent('reviewer', { rules: [{ do: { verdict: 'APPROVED' } }] });
  return tuis.start(`[safety]\nsandbox = "off"\n[agents.codex]\ncommand = "${codexCommand}"\n`, {
    agents: { reviewer },
  });
}

describe('the TUI at start', { timeout: 120_000 }, () => {
  it('warns that the planner’s CLI is not installed, with the install hint, before any message', async () => {
    const t = start('codex-not-installed-here');
    await t.shows('waiting for your goal');
    await t.shows('codex-not-installed-here not found (planner): npm install -g @openai/codex');
  });

  it('says nothing of the kind when the CLI is there', async () => {
    const t = start('/bin/true');
    await t.shows('waiting for your goal');
    await t.shows('warning: confi'); // the start notices are shown…
    expect(t.frame()).not.toContain('not found'); // …and none is about a CLI
  });
});
