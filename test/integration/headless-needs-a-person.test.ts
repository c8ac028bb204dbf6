// Headless runs that stop for a person (exit 3) or an agent failure (exit 4), and how a rerun continues them.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../src/adapters/fake/fake-agent.js';
import type { FakeScript } from '../../src/adapters/fake/script.js';
import { runHeadless, type HeadlessOptions } from '../../src/modes/headless.js';
import { parseDecision } from '../../src/modes/decisions.js';
import { gitLog, readWork, sink, tempRepo } from '../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function harness(planner: FakeScript, reviewer: FakeScript) {
  const repo = tempRepo();
  cleanup = repo.cleanup;
  const agents: { planner: FakeAgent; reviewer: FakeAgent }[] = [];
  const run = async (opts: Partial<HeadlessOptions>) => {
    // a new process each time: new agent instances, state only from disk
    const a = {
      planner: new FakeAgent('planner', planner, { sessionPrefix: 'p' }),
      reviewer: new FakeAgent('reviewer', reviewer, { sessionPrefix: 'r' }),
    };
    agents.push(a);
    const out = sink();
    const code = await runHeadless({
      cwd: repo.dir,
      homeDir: repo.home,
      auto: false,
      json: true,
      resume: 'ask',
      agents: a,
      stdout: out,
      stderr: sink(),
      ...opts,
    });
    return { code, events: out.lines(), agents: a };
  };
  return { repo, run, agents };
}

const ALWAYS_CHANGES: FakeScript = {
  rules: [{ when: { kind: 'review' }, do: { verdict: 'CHANGES_REQUIRED', text: '## Comments\n1. no' } }],
};

describe('headless runs that need a person', () => {
  it('iteration cap → exit 3 with an arbitration event; --decide continue:1 runs one more round; --decide approve executes', async () => {
    const h = harness({ rules: [] }, ALWAYS_CHANGES);
    const first = await h.run({ goal: 'g', auto: true, maxIterations: 2 });
    expect(first.code).toBe(3);
    const waiting = first.events.find((e) => e.event === 'needs_human');
    expect(waiting).toMatchObject({ kind: 'arbitration', iteration: 2, phase: 'REVIEW' });
    // The event lists what can be answered here, as flags.
    expect((waiting?.choices as Array<{ flag: string }>).map((c) => c.flag)).toEqual([
      '--decide approve',
      '--decide continue:N',
      '--decide edit',
      '--decide cancel',
    ]);
    expect(String(waiting?.hint)).toContain('--decide approve | continue:N | edit | cancel');
    expect(first.events.filter((e) => e.event === 'verdict')).toHaveLength(2);

    const more = await h.run({ resume: 'resume', auto: true, decision: parseDecision('continue:1') });
    expect(more.code).toBe(3);
    expect(more.events.filter((e) => e.event === 'verdict')).toHaveLength(1);
    expect(more.events.find((e) => e.event === 'needs_human')).toMatchObject({ kind: 'arbitration', iteration: 3 });

    const approve = await h.run({
      resume: 'resume',
      auto: true,
      autoApprove: true,
      decision: parseDecision('approve'),
    });
    expect(approve.code).toBe(0);
    expect(readWork(h.repo.dir, 'log.md')).toContain('Plan force-approved by the person at iteration 3');
    expect(gitLog(h.repo.dir).filter((s) => s.startsWith('[Step'))).toHaveLength(2);
  });

  it('without --json the person is told which flags to rerun with, never a key', async () => {
    const h = harness({ rules: [] }, ALWAYS_CHANGES);
    const out = sink();
    const code = await runHeadless({
      cwd: h.repo.dir,
      homeDir: h.repo.home,
      goal: 'g',
      auto: true,
      json: false,
      maxIterations: 1,
      resume: 'ask',
      agents: { planner: new FakeAgent('planner', { rules: [] }), reviewer: new FakeAgent('reviewer', ALWAYS_CHANGES) },
      stdout: out,
      stderr: sink(),
    });
    expect(code).toBe(3);
    const line =
      out
        .text()
        .split('\n')
        .find((l) => l.startsWith('[needs you]')) ?? '';
    expect(line).toContain('rerun with --resume --decide approve | continue:N | edit | cancel');
    expect(line).not.toMatch(/\bpress\b|\bEnter\b|\bEsc\b/);
  });

  it('arbitration → edit by hand → --decide edited sends the edited plan to review', async () => {
    const h = harness(
      { rules: [] },
      { rules: [{ when: { iteration: 1 }, do: { verdict: 'CHANGES_REQUIRED' } }, { do: { verdict: 'APPROVED' } }] },
    );
    expect((await h.run({ goal: 'g', auto: true, maxIterations: 1 })).code).toBe(3);
    const edit = await h.run({ resume: 'resume', decision: parseDecision('edit') });
    expect(edit.code).toBe(3);
    expect(edit.events.find((e) => e.event === 'needs_human')).toMatchObject({ kind: 'manual_edit' });
    const edited = await h.run({ resume: 'resume', auto: true, decision: parseDecision('edited') });
    expect(edited.events.find((e) => e.event === 'verdict')).toMatchObject({ verdict: 'APPROVED', iteration: 2 });
    expect(edited.code).toBe(3); // approved; execution waits for a go
  });

  it('an agent question → exit 3; --answer goes back into the same session', async () => {
    const h = harness(
      { rules: [{ when: { kind: 'write_plan', resumed: false }, do: { question: 'Which database should I use?' } }] },
      { rules: [] },
    );
    const asked = await h.run({ goal: 'g', auto: true });
    expect(asked.code).toBe(3);
    expect(asked.events.find((e) => e.event === 'needs_human')).toMatchObject({
      kind: 'question',
      role: 'planner',
      text: 'Which database should I use?',
    });
    const session = (JSON.parse(readWork(h.repo.dir, 'state.json')) as { sessions: { planner: string } }).sessions
      .planner;

    const answered = await h.run({ resume: 'resume', auto: true, answer: 'Postgres' });
    const turn = answered.agents.planner.turns[0]!;
    expect(turn.method).toBe('resume');
    expect(turn.sessionId).toBe(session);
    expect(turn.turn.prompt).toContain('Postgres');
    expect(answered.events.some((e) => e.event === 'phase' && e.to === 'REVIEW')).toBe(true);
  });

  it('an agent failure → exit 4; rerunning with --resume retries the round', async () => {
    const h = harness(
      {
        rules: [
          {
            when: { kind: 'write_plan', resumed: false },
            do: { fail: { kind: 'agent_error', message: 'HTTP 400 invalid request' } },
          },
        ],
      },
      { rules: [] },
    );
    const failed = await h.run({ goal: 'g', auto: true });
    expect(failed.code).toBe(4);
    expect(failed.events.find((e) => e.event === 'needs_human')).toMatchObject({
      kind: 'failure',
      failure: 'agent_error',
      message: 'HTTP 400 invalid request',
    });
    const retried = await h.run({ resume: 'resume', auto: true, autoApprove: true });
    expect(retried.code).toBe(0);
  });

  it('manual mode: each invocation lets exactly one round through', async () => {
    const h = harness({ rules: [] }, { rules: [] });
    const one = await h.run({ goal: 'g' });
    expect(one.code).toBe(3);
    expect(one.events.filter((e) => e.event === 'agent' && e.type === 'done')).toHaveLength(1);
    expect(one.events.find((e) => e.event === 'needs_human')).toMatchObject({ kind: 'go', action: { kind: 'review' } });
    const two = await h.run({ resume: 'resume' });
    expect(two.events.filter((e) => e.event === 'agent' && e.type === 'done')).toHaveLength(1);
    expect(two.events.find((e) => e.event === 'needs_human')).toMatchObject({
      kind: 'go',
      phase: 'APPROVED',
      action: { kind: 'execute_step', step: 1 },
    });
  });

  it('--resume --auto at a waiting go starts that round once (switching to auto already starts it)', async () => {
    const h = harness({ rules: [] }, { rules: [] });
    expect((await h.run({ goal: 'g' })).code).toBe(3); // the plan is written; the review waits for a go
    const auto = await h.run({ resume: 'resume', auto: true });
    expect(auto.code).toBe(3); // approved; execution waits for a go
    expect(auto.agents.reviewer.turns).toHaveLength(1);
    expect(auto.events.filter((e) => e.event === 'round')).toHaveLength(1);
  });
});

describe('the hints name commands that do what they say', () => {
  it('a run started with --auto stops at the approved plan; the hinted --resume --auto runs and commits the steps', async () => {
    const h = harness({ rules: [] }, { rules: [] });
    const first = await h.run({ goal: 'g', auto: true });
    expect(first.code).toBe(3);
    const gate = first.events.find((e) => e.event === 'needs_human');
    expect(gate).toMatchObject({ kind: 'go', phase: 'APPROVED', action: { kind: 'execute_step', step: 1 } });
    expect(String(gate?.hint)).toContain('--resume --auto to run them all');
    const before = gitLog(h.repo.dir);

    const all = await h.run({ resume: 'resume', auto: true });
    expect(all.code).toBe(0);
    const after = gitLog(h.repo.dir);
    const commits = after.slice(0, after.length - before.length);
    expect(commits).toHaveLength(2);
    expect(commits.every((subject) => /^\[Step [12]\]/.test(subject))).toBe(true);
    expect(existsSync(path.join(h.repo.dir, 'fake-step-1.txt'))).toBe(true);
    expect(existsSync(path.join(h.repo.dir, 'fake-step-2.txt'))).toBe(true);
    expect(JSON.parse(readWork(h.repo.dir, 'state.json'))).toMatchObject({ phase: 'DONE' });
  });
});

describe('crash recovery on start', () => {
  it('"Resume? [Y/n]" yes → the agents’ sessions are resumed by id', async () => {
    const h = harness({ rules: [] }, { rules: [] });
    await h.run({ goal: 'g' }); // planner wrote the plan; waits for the go to review
    await h.run({ resume: 'resume' }); // the review ran; waits for the go to execute
    const ids = (JSON.parse(readWork(h.repo.dir, 'state.json')) as { sessions: { planner: string; reviewer: string } })
      .sessions;
    const questions: string[] = [];
    const again = await h.run({ ask: async (q) => (questions.push(q), true), auto: true, autoApprove: true });
    expect(questions).toEqual(['Unfinished session found (phase APPROVED, iteration 1). Resume? [Y/n]']);
    expect(again.code).toBe(0);
    expect(again.agents.planner.turns.every((t) => t.method === 'resume' && t.sessionId === ids.planner)).toBe(true);
  });

  it('"Resume? [Y/n]" no → the run is archived to history/ and a new one starts', async () => {
    const h = harness({ rules: [] }, { rules: [] });
    await h.run({ goal: 'first goal' });
    const fresh = await h.run({ goal: 'second goal', ask: async () => false });
    expect(fresh.code).toBe(3);
    const history = path.join(h.repo.dir, '.agent-collab', 'history');
    const dirs = readdirSync(history);
    expect(dirs).toHaveLength(1);
    expect(dirs[0]).toMatch(/^\d{4}-\d{2}-\d{2}-first-goal$/);
    expect(existsSync(path.join(history, dirs[0]!, 'plan.md'))).toBe(true);
    expect(existsSync(path.join(history, dirs[0]!, 'state.json'))).toBe(true);
    expect(JSON.parse(readWork(h.repo.dir, 'state.json'))).toMatchObject({ goal: 'second goal' });
  });

  it('a session that cannot be resumed → a new session primed with the recovery prompt (plan, comments, phase)', async () => {
    const planner: FakeScript = { rules: [], loseSessions: true };
    const h = harness(planner, {
      rules: [{ do: { verdict: 'CHANGES_REQUIRED', text: '## Comments\n1. Name the flag.' } }],
    });
    await h.run({ goal: 'g' });
    await h.run({ resume: 'resume' }); // review → CHANGES_REQUIRED, waits for the go to respond
    const old = (JSON.parse(readWork(h.repo.dir, 'state.json')) as { sessions: { planner: string } }).sessions.planner;
    const r = await h.run({ resume: 'resume' }); // the planner's session is gone in this "process"
    const [lost, fresh] = r.agents.planner.turns;
    expect(lost).toMatchObject({ method: 'resume', sessionId: old });
    expect(fresh!.method).toBe('start');
    expect(fresh!.turn.prompt).toContain('Name the flag.'); // comments.md
    expect(fresh!.turn.prompt).toContain('Implement the change described in the goal'); // plan.md
    expect(fresh!.turn.prompt).toContain('RESPOND'); // the phase
    expect(r.events.find((e) => e.event === 'notice')).toMatchObject({
      message: expect.stringContaining('could not be resumed'),
    });
    const now = (JSON.parse(readWork(h.repo.dir, 'state.json')) as { sessions: { planner: string } }).sessions.planner;
    expect(now).not.toBe(old);
  });
});
