// [budget] caps on a headless run with fake agents that report usage: the run stops at the cap (before the next
// round, or the round under way when the cap is passed while it streams), exits 3 with a `needs_human` event of kind
// `budget`, gives a notice at 80%, and goes on after the cap is raised (in the config, or with --decide raise).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../src/adapters/fake/fake-agent.js';
import type { FakeScript } from '../../src/adapters/fake/script.js';
import type { HeadlessOptions } from '../../src/modes/headless.js';
import { runAutoHeadless } from '../helpers/headless-run.js';
import { parseDecision } from '../../src/modes/decisions.js';
import { gitLog, readWork, tempRepo } from '../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function harness(config: string, planner: FakeScript, reviewer: FakeScript = { rules: [] }) {
  const repo = tempRepo(config);
  cleanup = repo.cleanup;
  const run = async (opts: Partial<HeadlessOptions>, plannerNow: FakeScript = planner) => {
    // A new process each time: new agents, the state only from disk.
    const agents = {
      planner: new FakeAgent('planner', plannerNow, { sessionPrefix: 'p' }),
      reviewer: new FakeAgent('reviewer', reviewer, { sessionPrefix: 'r' }),
    };
    return { ...(await runAutoHeadless(repo, agents, opts)), agents };
  };
  const setConfig = (text: string): void => writeFileSync(path.join(repo.dir, '.agent-collab', 'config.toml'), text);
  return { repo, run, setConfig };
}

const TESTS = '[test]\ndefault_command = "true"\n';
const PLAN = [
  '# Task: g',
  '',
  '## Steps',
  '1. [ ] first',
  '2. [ ] second',
  '',
  // A long plan: its final usage report (~10k output tokens) passes the cap as the round ends.
  `Notes: ${'x'.repeat(40_000)}`,
  '',
].join('\n');

function usage(inputTokens: number) {
  return { type: 'usage' as const, inputTokens, outputTokens: 0, cachedTokens: 0, costUsd: 0 };
}

describe('budgets', () => {
  it('a cap reached as a round ends stops the run before the next round: exit 3, needs_human kind budget; a resume after raising the cap in the config goes on', async () => {
    const h = harness(`${TESTS}[budget]\nmax_tokens = 8000\n`, {
      rules: [{ when: { kind: 'write_plan' }, do: { text: PLAN } }],
    });
    const first = await h.run({ goal: 'g' });
    expect(first.code).toBe(3);
    const waiting = first.events.find((e) => e.event === 'needs_human');
    expect(waiting).toMatchObject({ kind: 'budget', budget: 'tokens', cap: 8000, action: { kind: 'review' } });
    expect(Number(waiting?.spent)).toBeGreaterThanOrEqual(8000);
    expect((waiting?.choices as Array<{ flag: string }>).map((c) => c.flag)).toEqual([
      '--decide raise',
      '--decide stop',
      '--decide cancel',
    ]);
    // The round that reached the cap kept its answer; the next one never started.
    expect(readWork(h.repo.dir, 'plan.md')).toContain('1. [ ] first');
    expect(first.agents.reviewer.turns).toHaveLength(0);

    const again = await h.run({ resume: 'resume' });
    expect(again.code).toBe(3);
    expect(again.events.find((e) => e.event === 'needs_human')).toMatchObject({ kind: 'budget', budget: 'tokens' });
    expect(again.agents.reviewer.turns).toHaveLength(0);

    h.setConfig(`${TESTS}[budget]\nmax_tokens = 1000000\n`);
    const raised = await h.run({ resume: 'resume' });
    expect(raised.code).toBe(0);
    expect(raised.agents.reviewer.turns.length).toBeGreaterThan(0);
    expect(gitLog(h.repo.dir).filter((s) => s.startsWith('[Step'))).toHaveLength(2);
  });

  it('a cap passed while a step streams stops that step: nothing of it is committed; --decide raise runs it again', async () => {
    const h = harness(`${TESTS}[budget]\nmax_tokens = 30000\n`, {
      rules: [
        {
          when: { kind: 'execute_step', step: 1 },
          do: { events: [usage(40_000), { type: 'text', text: 'half way through step 1' }], hang: true },
        },
      ],
    });
    const first = await h.run({ goal: 'g' });
    expect(first.code).toBe(3);
    expect(first.events.find((e) => e.event === 'needs_human')).toMatchObject({
      kind: 'budget',
      budget: 'tokens',
      action: { kind: 'execute_step', step: 1 },
    });
    expect(first.events).toContainEqual(expect.objectContaining({ event: 'budget', budget: 'tokens', reached: true }));
    // The hanging turn was stopped (the run ended), and nothing of it was committed.
    expect(gitLog(h.repo.dir).filter((s) => s.startsWith('[Step'))).toHaveLength(0);

    // This time the step's agent finishes (the default answer: a file per step).
    const raised = await h.run({ resume: 'resume', decision: parseDecision('raise') }, { rules: [] });
    expect(raised.code).toBe(0);
    expect(gitLog(h.repo.dir).filter((s) => s.startsWith('[Step'))).toHaveLength(2);
    expect(readWork(h.repo.dir, 'log.md')).toContain('Person raised [budget] max_tokens for this run');
  });

  it('gives one notice at 80% of a cap and goes on below it', async () => {
    const h = harness(`${TESTS}[budget]\nmax_tokens = 100000\n`, {
      rules: [{ when: { kind: 'write_plan' }, do: { events: [usage(85_000)] } }],
    });
    const run = await h.run({ goal: 'g' });
    expect(run.code).toBe(0);
    const notices = run.events.filter((e) => e.event === 'budget');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ budget: 'tokens', reached: false, cap: 100000 });
    expect(run.events.find((e) => e.event === 'needs_human')).toBeUndefined();
  });
});
