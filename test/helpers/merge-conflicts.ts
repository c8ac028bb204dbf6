// A run brought to the `merge_conflicts` wait (issue 18, item 12): the plan is written and reviewed (changes
// required), the person edits the intro line while the planner revises the same line, and "merge" leaves a conflict.
// Shared by the headless and the TUI tests of that wait.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { FakeAgent } from '../../src/adapters/fake/fake-agent.js';
import type { FakeScript } from '../../src/adapters/fake/script.js';
import { parseDecision } from '../../src/modes/decisions.js';
import { runHeadless, type HeadlessOptions } from '../../src/modes/headless.js';
import { sink, tempRepo } from './repo.js';

export const PLAN_V1 = '# Plan\n\nIntro line.\n\n## Steps\n1. [ ] Add a.txt\n2. [ ] Add b.txt\n';
/** The person's version of the intro line (the planner's revision changes the same line). */
export const MINE = 'Intro line, as I want it.';
export const PLANNERS_LINE = 'Intro line, revised by the planner.';
/** A conflict marker at the start of a line. */
export const MARKERS = /^(<<<<<<<|>>>>>>>) /m;

export interface ConflictRun {
  repo: ReturnType<typeof tempRepo>;
  planFile: string;
  /** Every prompt any agent made by `agents()` got so far, across runs. */
  prompts: () => string[];
  /** Fake agents that follow the scripts (for a run in the TUI). */
  agents: () => { planner: FakeAgent; reviewer: FakeAgent };
  /** One headless invocation (`--resume` unless `opts` say otherwise). */
  run: (opts: Partial<HeadlessOptions>) => Promise<{ code: number; events: Array<Record<string, unknown>> }>;
  /** Runs to the merge of a conflicting edit: the run then waits at the conflicts. */
  toConflicts: () => Promise<{ code: number; events: Array<Record<string, unknown>> }>;
}

/** `v1`: the planner's first plan; `mine`: what the person puts in place of its intro line. */
export function conflictRun({ v1 = PLAN_V1, mine = MINE }: { v1?: string; mine?: string } = {}): ConflictRun {
  const planner: FakeScript = {
    rules: [
      { when: { kind: 'write_plan' }, do: { text: v1 } },
      { when: { kind: 'respond' }, do: { text: v1.replace('Intro line.', PLANNERS_LINE) } },
    ],
  };
  const reviewer: FakeScript = {
    rules: [
      { when: { iteration: 1 }, do: { verdict: 'CHANGES_REQUIRED', text: '## Comments\n1. Revise the intro.' } },
      { do: { verdict: 'APPROVED' } },
    ],
  };
  const repo = tempRepo('[safety]\nsandbox = "off"\n');
  const created: FakeAgent[] = [];
  const agents = () => {
    const made = {
      planner: new FakeAgent('planner', planner, { sessionPrefix: 'p' }),
      reviewer: new FakeAgent('reviewer', reviewer, { sessionPrefix: 'r' }),
    };
    created.push(made.planner, made.reviewer);
    return made;
  };
  const prompts = (): string[] => created.flatMap((a) => a.turns.map((t) => t.turn.prompt));
  const run: ConflictRun['run'] = async (opts) => {
    const out = sink();
    const code = await runHeadless({
      cwd: repo.dir,
      homeDir: repo.home,
      auto: false,
      json: true,
      resume: 'resume',
      agents: agents(),
      stdout: out,
      stderr: sink(),
      ...opts,
    });
    return { code, events: out.lines() };
  };
  const planFile = path.join(repo.dir, '.agent-collab', 'plan.md');
  const toConflicts = async () => {
    expect((await run({ goal: 'g', resume: 'ask' })).code).toBe(3);
    expect((await run({})).code).toBe(3); // review: CHANGES_REQUIRED
    writeFileSync(planFile, readFileSync(planFile, 'utf8').replace('Intro line.', mine));
    expect((await run({})).code).toBe(3); // the planner revises: changed outside
    return run({ decision: parseDecision('merge') });
  };
  return { repo, planFile, prompts, agents, run, toConflicts };
}
