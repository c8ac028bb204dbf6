// Failures the engine handles by itself: service errors are retried with backoff; a usage limit pauses with
// the reset time; only a real verdict consumes an iteration.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../src/adapters/fake/fake-agent.js';
import type { FakeScript } from '../../src/adapters/fake/script.js';
import { runHeadless } from '../../src/modes/headless.js';
import { readWork, sink, tempRepo } from '../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

async function run(reviewer: FakeScript, retries: number) {
  const repo = tempRepo();
  cleanup = repo.cleanup;
  mkdirSync(path.join(repo.dir, '.agent-collab'), { recursive: true });
  writeFileSync(
    path.join(repo.dir, '.agent-collab', 'config.toml'),
    `[retry]\ninfra_retries = ${retries}\nbackoff_seconds = 0.01\n`,
  );
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

const HTTP_500 = { fail: { kind: 'infra' as const, message: 'HTTP 500 Internal Server Error' } };

describe('agent failures', () => {
  it('a service error is retried with backoff and the round then succeeds, using one iteration', async () => {
    const r = await run({ rules: [{ times: 2, do: HTTP_500 }, { do: { verdict: 'APPROVED' } }] }, 3);
    expect(r.code).toBe(3); // approved, waiting for the go to execute
    const notices = r.events.filter((e) => e.event === 'notice').map((e) => String(e.message));
    expect(notices.filter((m) => m.includes('retrying in'))).toHaveLength(2);
    expect(notices[0]).toContain('(1/3)');
    expect(r.reviewer.turns).toHaveLength(3);
    expect(JSON.parse(readWork(r.dir, 'state.json'))).toMatchObject({ phase: 'APPROVED', iteration: 1 });
  });

  it('service errors past the retry count pause the run with the reason (exit 4), no iteration used', async () => {
    const r = await run({ rules: [{ do: HTTP_500 }] }, 2);
    expect(r.code).toBe(4);
    expect(r.reviewer.turns).toHaveLength(3);
    expect(r.events.find((e) => e.event === 'needs_human')).toMatchObject({
      kind: 'failure',
      failure: 'infra',
      message: 'HTTP 500 Internal Server Error',
    });
    expect(JSON.parse(readWork(r.dir, 'state.json'))).toMatchObject({ phase: 'REVIEW', iteration: 0 });
  });

  it('a usage limit is not retried: the run pauses and says until when', async () => {
    const r = await run(
      {
        rules: [
          { do: { fail: { kind: 'usage_limit', message: 'usage limit reached', resetAt: '2026-11-23T18:00:00Z' } } },
        ],
      },
      3,
    );
    expect(r.code).toBe(4);
    expect(r.reviewer.turns).toHaveLength(1);
    const w = r.events.find((e) => e.event === 'needs_human');
    expect(w).toMatchObject({
      kind: 'failure',
      failure: 'usage_limit',
      message: 'usage limit reached (the limit resets at 2026-11-23T18:00:00Z)',
    });
  });
});
