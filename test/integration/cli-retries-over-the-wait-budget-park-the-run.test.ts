// A CLI that announces it will wait before retrying by itself (a 429's retry-after, a 401) is stopped when the
// wait is over `[timeouts] max_retry_wait_seconds`: the run parks as usage_limit (with the reset time) or auth
// at once, instead of hanging on in the CLI's own retries. The fake reviewer hangs after its notices, as a CLI
// waiting to retry does: only stopping it ends the round.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../src/adapters/fake/fake-agent.js';
import type { FakeScript } from '../../src/adapters/fake/script.js';
import type { AgentEvent } from '../../src/core/types.js';
import { runHeadless } from '../../src/modes/headless.js';
import { readWork, sink, tempRepo } from '../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

async function run(reviewer: FakeScript, config = '') {
  const repo = tempRepo();
  cleanup = repo.cleanup;
  mkdirSync(path.join(repo.dir, '.agent-collab'), { recursive: true });
  writeFileSync(path.join(repo.dir, '.agent-collab', 'config.toml'), `[retry]\ninfra_retries = 0\n${config}`);
  const out = sink();
  const r = new FakeAgent('reviewer', reviewer);
  const code = await runHeadless({
    cwd: repo.dir,
    homeDir: repo.home,
    goal: 'g',
    auto: true,
    json: true,
    resume: 'ask',
    agents: { planner: new FakeAgent('planner', { rules: [] }), reviewer: r },
    stdout: out,
    stderr: sink(),
  });
  return { code, events: out.lines(), reviewer: r, dir: repo.dir };
}

const retry = (attempt: number, status: number, waitSeconds: number): AgentEvent => ({
  type: 'retry',
  attempt,
  maxAttempts: 10,
  status,
  waitSeconds,
  kind: status === 429 ? 'usage_limit' : status === 401 ? 'auth' : 'infra',
  message: `API error ${status}; claude retries (${attempt}/10) in ${waitSeconds} s`,
});
const waitingCli = (...events: AgentEvent[]): FakeScript => ({
  rules: [{ when: { kind: 'review' }, do: { events, hang: true } }],
});

describe('retries a CLI announces', () => {
  it('a 429 retry announcing 120 s stops the CLI: usage_limit with the reset time, exit 4', async () => {
    const before = Date.now();
    const r = await run(waitingCli(retry(1, 429, 120)));
    expect(r.code).toBe(4);
    const w = r.events.find((e) => e.event === 'needs_human');
    expect(w).toMatchObject({ kind: 'failure', role: 'reviewer', failure: 'usage_limit' });
    const resetAt = /the limit resets at (\S+)\)/.exec(String(w?.message))?.[1];
    expect(Date.parse(resetAt ?? '')).toBeGreaterThanOrEqual(before + 120_000);
    expect(r.reviewer.turns).toHaveLength(1);
    const state = JSON.parse(readWork(r.dir, 'state.json'));
    expect(state).toMatchObject({
      phase: 'REVIEW',
      iteration: 0,
      awaiting: { kind: 'failure', failure: 'usage_limit' },
    });
  });

  it('retries within the budget are let through until their waits add up to more (40 s + 40 s > 60 s)', async () => {
    const r = await run(waitingCli(retry(1, 429, 40), retry(2, 429, 40)));
    expect(r.code).toBe(4);
    expect(r.events.filter((e) => e.event === 'agent' && e.type === 'retry')).toHaveLength(2);
    expect(r.events.find((e) => e.event === 'needs_human')).toMatchObject({ failure: 'usage_limit' });
  });

  it('a retry within the budget is waited for and the round answers normally', async () => {
    const r = await run({
      rules: [{ when: { kind: 'review' }, do: { events: [retry(1, 429, 5)], verdict: 'APPROVED' } }],
    });
    expect(r.code).toBe(3); // approved; execution waits for a go
    expect(JSON.parse(readWork(r.dir, 'state.json'))).toMatchObject({ phase: 'APPROVED', iteration: 1 });
  });

  it('a 401 retry is an auth failure at once, however short its wait', async () => {
    const r = await run(waitingCli(retry(1, 401, 0.6)));
    expect(r.code).toBe(4);
    expect(r.events.find((e) => e.event === 'needs_human')).toMatchObject({ failure: 'auth', role: 'reviewer' });
  });

  it('[timeouts] max_retry_wait_seconds sets the budget', async () => {
    const r = await run(waitingCli(retry(1, 429, 5)), '[timeouts]\nmax_retry_wait_seconds = 2\n');
    expect(r.code).toBe(4);
    expect(r.events.find((e) => e.event === 'needs_human')).toMatchObject({ failure: 'usage_limit' });
  });
});
