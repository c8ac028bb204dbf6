// The issue ledger and the stagnation stop with fake agents, real files and git (headless, --auto): ledger.md across
// rounds, the ids in the prompts, a planner that keeps disputing a point stopping the loop before the cap (exit 3,
// the disputes in the needs_human event), a resume that keeps the ledger, and what `--decide` does there.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import type { FakeRule } from '../../../src/adapters/fake/script.js';
import { parseDecision } from '../../../src/modes/decisions.js';
import { runAutoHeadless } from '../../helpers/headless-run.js';
import { gitLog, readWork, tempRepo } from '../../helpers/repo.js';

const PLAN = '# Task: Count\n\n## Goal\nA counter.\n\n## Steps\n1. [ ] Add count.txt\n';
const STEP: FakeRule = {
  when: { kind: 'execute_step', step: 1 },
  do: { writeFiles: { 'count.txt': '1\n' }, text: 'Summary: add count.txt' },
};

type Repo = ReturnType<typeof tempRepo>;
let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function repo(): Repo {
  const r = tempRepo('[review]\ncode = "off"\n');
  cleanup = r.cleanup;
  return r;
}

function respond(responses: string, extra: Partial<FakeRule> = {}): FakeRule {
  return { when: { kind: 'respond' }, ...extra, do: { text: `${PLAN}\n## Responses to review\n${responses}\n` } };
}
function review(iteration: number, verdict: 'APPROVED' | 'CHANGES_REQUIRED', text: string): FakeRule {
  return { when: { kind: 'review', iteration }, do: { verdict, text } };
}

interface State {
  phase: string;
  iteration: number;
  maxIterations: number;
  runId: string;
  ledger: { entries: Array<{ id: string; status: string }> };
}
function state(r: Repo): State {
  return JSON.parse(readFileSync(path.join(r.dir, '.agent-collab', 'state.json'), 'utf8')) as State;
}
function statuses(r: Repo): Record<string, string> {
  return Object.fromEntries(state(r).ledger.entries.map((e) => [e.id, e.status]));
}
function prompts(agent: FakeAgent, kind: string): string[] {
  return agent.turns.filter((t) => t.turn.meta.kind === kind).map((t) => t.turn.prompt);
}

describe('the issue ledger', { timeout: 120_000 }, () => {
  it('ledger.md and the state keep each comment with its status across rounds; the prompts carry the ids', async () => {
    const r = repo();
    const planner = new FakeAgent('planner', {
      rules: [
        { when: { kind: 'write_plan' }, do: { text: PLAN } },
        respond('L1: addressed — step 1 now names count.txt\nL2: disputed — there is nothing to test yet', {
          when: { kind: 'respond', iteration: 1 },
        }),
        respond('L3: addressed — the goal says it starts at 1'),
        STEP,
      ],
    });
    const reviewer = new FakeAgent('reviewer', {
      rules: [
        review(1, 'CHANGES_REQUIRED', '## Comments\n1. Name the file in step 1.\n2. Add a test step.'),
        review(
          2,
          'CHANGES_REQUIRED',
          '## Ledger\n- L1: resolved\n- L2: withdrawn — fair, nothing to test\n\n## Comments\n1. Say where the count starts.',
        ),
        review(3, 'APPROVED', '## Ledger\nL3: resolved\n\n## Comments\n1. None.'),
      ],
    });
    const { code } = await runAutoHeadless(r, { planner, reviewer }, { goal: 'count' });

    expect(code).toBe(0);
    expect(statuses(r)).toEqual({ L1: 'resolved', L2: 'withdrawn', L3: 'resolved' });
    const ledger = readWork(r.dir, 'ledger.md');
    expect(ledger).toContain('- L1 [resolved] plan review, round 1: Name the file in step 1.');
    expect(ledger).toContain('- L2 [withdrawn] plan review, round 1: Add a test step.');
    expect(ledger).toContain('- L3 [resolved] plan review, round 2: Say where the count starts.');
    expect(ledger).toContain('- Planner (disputed): there is nothing to test yet');
    expect(ledger).toContain('- Latest word: fair, nothing to test');

    // The planner was told the ids; the reviewer got the live entries with the planner's answers.
    expect(prompts(planner, 'respond')[0]).toContain('- L1 (round 1, comment 1) Name the file in step 1.');
    const second = prompts(reviewer, 'review')[1];
    expect(second).toContain(
      '- L2 [disputed] (round 1) Add a test step.\n  Planner: disputed — there is nothing to test yet',
    );
    expect(prompts(reviewer, 'review')[2]).toContain('- L3 [addressed] (round 2) Say where the count starts.');
    expect(prompts(reviewer, 'review')[2]).not.toContain('L1 [');
  });
});

/** A planner that keeps disputing L1 while it addresses the rest; a reviewer that keeps raising L1. */
function stubborn(): { planner: () => FakeAgent; reviewer: () => FakeAgent } {
  return {
    planner: () =>
      new FakeAgent('planner', {
        rules: [
          { when: { kind: 'write_plan' }, do: { text: PLAN } },
          respond(
            'L1: disputed — one process writes the counter, a lock adds nothing\nL2: addressed — named\nL3: addressed — logged',
          ),
          STEP,
        ],
      }),
    reviewer: () =>
      new FakeAgent('reviewer', {
        rules: [
          review(1, 'CHANGES_REQUIRED', '## Comments\n1. Use a lock file for the counter.\n2. Name the file.'),
          review(
            2,
            'CHANGES_REQUIRED',
            '## Ledger\nL1: open — a lock is still needed\nL2: resolved\n\n## Comments\n1. Log the count.',
          ),
          review(3, 'CHANGES_REQUIRED', '## Ledger\nL1: open — a lock is still needed\nL3: resolved'),
          { when: { kind: 'review' }, do: { verdict: 'APPROVED', text: '## Comments\n1. None.' } },
        ],
      }),
  };
}

describe('a loop that stops by itself', { timeout: 120_000 }, () => {
  it('a point the planner disputes and the reviewer raises again twice → exit 3 before the cap, the dispute listed; a resume keeps it; siding with the planner approves', async () => {
    const r = repo();
    const agents = stubborn();
    const first = await runAutoHeadless(
      r,
      { planner: agents.planner(), reviewer: agents.reviewer() },
      { goal: 'count' },
    );

    expect(first.code).toBe(3);
    const asked = first.events.find((e) => e.event === 'needs_human');
    expect(asked).toMatchObject({
      kind: 'disagreement',
      phase: 'REVIEW',
      review: 'plan',
      round: 3,
      reason: 'the reviewer raised L1 again twice after the planner disputed it',
      disputes: [
        {
          id: 'L1',
          status: 'open',
          reviewer: 'Use a lock file for the counter.',
          planner: 'one process writes the counter, a lock adds nothing',
          disputed: true,
        },
      ],
    });
    // The hint says both sides on one line, for a run without --json too.
    expect(String(asked?.hint)).toContain(
      'L1 reviewer: "Use a lock file for the counter." / planner: "one process writes the counter, a lock adds nothing"',
    );
    expect((asked?.choices as Array<{ flag: string }>).map((c) => c.flag)).toEqual([
      '--decide reviewer',
      '--decide planner',
      '--decide edit',
      '--decide continue:N',
      '--decide stop',
      '--decide cancel',
    ]);
    // Before the cap (5 review rounds by default), with nothing executed.
    expect(first.events.filter((e) => e.event === 'verdict')).toHaveLength(3);
    expect(state(r)).toMatchObject({ iteration: 3, maxIterations: 5 });
    expect(gitLog(r.dir)).toEqual(['initial']);
    expect(readWork(r.dir, 'ledger.md')).toContain(
      '- L1 [open] plan review, round 1: Use a lock file for the counter.',
    );

    // A new process: the ledger and the question come back from state.json; no agent runs.
    const again = { planner: agents.planner(), reviewer: agents.reviewer() };
    const second = await runAutoHeadless(r, again, { resume: 'resume' });
    expect(second.code).toBe(3);
    expect(second.events.find((e) => e.event === 'needs_human')).toMatchObject({
      kind: 'disagreement',
      disputes: [{ id: 'L1', disputed: true }],
    });
    expect(again.planner.turns.length + again.reviewer.turns.length).toBe(0);
    expect(statuses(r)).toEqual({ L1: 'open', L2: 'resolved', L3: 'resolved' });

    const ruled = await runAutoHeadless(
      r,
      { planner: agents.planner(), reviewer: agents.reviewer() },
      { resume: 'resume', decision: parseDecision('planner') },
    );
    expect(ruled.code).toBe(0);
    expect(statuses(r)).toEqual({ L1: 'withdrawn', L2: 'resolved', L3: 'resolved' });
    expect(readWork(r.dir, 'log.md')).toContain('Person sided with the planner on L1: withdrawn (the plan review)');
    expect(gitLog(r.dir)[0]).toBe('[Step 1] add count.txt');
  });

  it('--decide reviewer: the planner’s next round is told to apply the point; it does, and the review approves', async () => {
    const r = repo();
    const planner = () =>
      new FakeAgent('planner', {
        rules: [
          { when: { kind: 'write_plan' }, do: { text: PLAN } },
          respond('L1: disputed — a lock adds nothing', { when: { kind: 'respond', iteration: 1 } }),
          respond('L1: addressed — step 1 now takes a lock file'),
          STEP,
        ],
      });
    const reviewer = () =>
      new FakeAgent('reviewer', {
        rules: [
          review(1, 'CHANGES_REQUIRED', '## Comments\n1. Use a lock file for the counter.'),
          review(2, 'CHANGES_REQUIRED', '## Ledger\nL1: open — a lock is needed'),
          review(3, 'APPROVED', '## Ledger\nL1: resolved'),
        ],
      });
    const first = await runAutoHeadless(r, { planner: planner(), reviewer: reviewer() }, { goal: 'count' });
    expect(first.code).toBe(3);
    expect(first.events.find((e) => e.event === 'needs_human')).toMatchObject({
      kind: 'disagreement',
      round: 2,
      reason: 'review round 2 settled no ledger entry',
    });

    const p = planner();
    const ruled = await runAutoHeadless(
      r,
      { planner: p, reviewer: reviewer() },
      { resume: 'resume', decision: parseDecision('reviewer') },
    );
    expect(ruled.code).toBe(0);
    expect(prompts(p, 'respond')[0]).toContain(
      'The person sided with the reviewer on L1: apply it now; do not dispute it again.',
    );
    expect(statuses(r)).toEqual({ L1: 'resolved' });
    expect(gitLog(r.dir)[0]).toBe('[Step 1] add count.txt');
  });

  it('--decide stop: back to goal refinement, the plan kept, nothing executed', async () => {
    const r = repo();
    const agents = stubborn();
    expect(
      (await runAutoHeadless(r, { planner: agents.planner(), reviewer: agents.reviewer() }, { goal: 'count' })).code,
    ).toBe(3);
    const stopped = await runAutoHeadless(
      r,
      { planner: agents.planner(), reviewer: agents.reviewer() },
      { resume: 'resume', goal: undefined, decision: parseDecision('stop') },
    );
    expect(stopped.code).toBe(3);
    expect(stopped.events.find((e) => e.event === 'needs_human')).toMatchObject({ kind: 'goal', phase: 'REFINE_GOAL' });
    expect(state(r).phase).toBe('REFINE_GOAL');
    expect(readWork(r.dir, 'plan.md')).toContain('# Task: Count');
    expect(gitLog(r.dir)).toEqual(['initial']);
    // The stopped run's report lists the point still in dispute, with the planner's answer.
    const report = readWork(r.dir, `runs/${state(r).runId}/report.md`);
    const open = report.slice(report.indexOf('## 6. Open review entries'), report.indexOf('## 7.'));
    expect(open).toContain('| L1 | open | Use a lock file for the counter. — planner: one process writes the counter');
  });
});
