// [limits] wait_for_reset on headless runs with fake agents: a usage limit with a reset a couple of seconds ahead parks
// the run (a `waiting` NDJSON event, no exit 3/4), the same round runs again after the reset and the run ends DONE
// with nobody asked; a reset past max_wait_minutes, or no reset time, asks the person as before; a run killed
// (SIGKILL) while parked and resumed waits for the same wake-up time, then goes on.
// The fake names a reset ~28 s before it fails: the wake-up is the reset plus 30 s, so the real waits stay ~2-3 s.
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { FakeAgent } from '../../src/adapters/fake/fake-agent.js';
import type { FakeScript } from '../../src/adapters/fake/script.js';
import type { Agent, AgentTurn } from '../../src/core/types.js';
import { runCli } from '../helpers/cli.js';
import { runAutoHeadless } from '../helpers/headless-run.js';
import { gitLog, readWork, tempRepo, tempRepoWithFakeScript } from '../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

const CONFIG = '[test]\ndefault_command = "true"\n[limits]\nwait_for_reset = true\n';
/** A reset whose wake-up (reset + 30 s) is `ms` after the review fails (undefined: no reset time given). */
const waking = (ms: number): number => ms - 30_000;
const limitOnFirstReview = (resetInMs?: number): FakeScript => ({
  rules: [
    {
      when: { kind: 'review' },
      times: 1,
      do: {
        fail: { kind: 'usage_limit', message: 'usage limit reached', ...(resetInMs !== undefined && { resetInMs }) },
      },
    },
  ],
});

/** The agent, with the time each of its turns started, by kind. */
function timed(agent: FakeAgent, starts: Array<{ kind: string; at: number }>): Agent {
  const note = (turn: AgentTurn): void => void starts.push({ kind: turn.meta.kind, at: Date.now() });
  return {
    name: agent.name,
    start: (turn) => (note(turn), agent.start(turn)),
    resume: (id, turn) => (note(turn), agent.resume(id, turn)),
    stop: () => agent.stop(),
  };
}

function harness(config: string, reviewer: FakeScript) {
  const repo = tempRepo(config);
  cleanup = repo.cleanup;
  const starts: Array<{ kind: string; at: number }> = [];
  const agents = {
    planner: new FakeAgent('planner', { rules: [] }, { sessionPrefix: 'p' }),
    reviewer: timed(new FakeAgent('reviewer', reviewer, { sessionPrefix: 'r' }), starts),
  };
  return { repo, starts, run: () => runAutoHeadless(repo, agents, { goal: 'g' }) };
}

describe('usage limits with [limits] wait_for_reset', () => {
  it('a reset seconds ahead: the run prints a waiting event, runs the review again after it and ends DONE unasked', async () => {
    const h = harness(CONFIG, limitOnFirstReview(waking(2_000)));
    const r = await h.run();
    expect(r.code).toBe(0);
    const waiting = r.events.find((e) => e.event === 'waiting');
    expect(waiting).toMatchObject({ reason: 'usage_limit', role: 'reviewer', action: 'review' });
    expect(r.events.some((e) => e.event === 'needs_human')).toBe(false);
    // The review that hit the limit ran again, not before the wake-up time.
    const reviews = h.starts.filter((s) => s.kind === 'review');
    expect(reviews).toHaveLength(2);
    expect(reviews[1]!.at).toBeGreaterThanOrEqual(Date.parse(String(waiting?.until)));
    expect(r.events.at(-1)).toMatchObject({ event: 'done', phase: 'DONE', exit_code: 0 });
    expect(gitLog(h.repo.dir).filter((m) => m.startsWith('[Step '))).toHaveLength(2);
  });

  it('a reset beyond max_wait_minutes asks the person as before (exit 4, failure usage_limit), no waiting event', async () => {
    const h = harness(`${CONFIG}max_wait_minutes = 60\n`, limitOnFirstReview(waking(2 * 3_600_000)));
    const r = await h.run();
    expect(r.code).toBe(4);
    expect(r.events.some((e) => e.event === 'waiting')).toBe(false);
    expect(r.events.find((e) => e.event === 'needs_human')).toMatchObject({
      kind: 'failure',
      failure: 'usage_limit',
      message: expect.stringContaining('over [limits] max_wait_minutes (60)'),
    });
    expect(JSON.parse(readWork(h.repo.dir, 'state.json'))).toMatchObject({
      awaiting: { kind: 'failure', failure: 'usage_limit' },
    });
  });

  it('no reset time: the person is asked (exit 4), saying the CLI gave none', async () => {
    const h = harness(CONFIG, limitOnFirstReview());
    const r = await h.run();
    expect(r.code).toBe(4);
    expect(r.events.some((e) => e.event === 'waiting')).toBe(false);
    expect(r.events.find((e) => e.event === 'needs_human')).toMatchObject({
      kind: 'failure',
      failure: 'usage_limit',
      message: 'usage limit reached (not waiting: the CLI gave no reset time)',
    });
  });

  it('Ctrl+C (SIGINT) while parked for 37 minutes: exit 130 at once, the wait kept in the saved state', async () => {
    const repo = tempRepoWithFakeScript(limitOnFirstReview(waking(37 * 60_000)));
    cleanup = repo.cleanup;
    const configFile = path.join(repo.dir, '.agent-collab', 'config.toml');
    writeFileSync(configFile, `${readWork(repo.dir, 'config.toml')}${CONFIG}`);
    const cli = runCli(['run', '--goal', 'g', '--auto', '--json'], { cwd: repo.dir, home: repo.home });
    const parked = await cli.waitFor((e) => e.event === 'waiting');
    cli.child.kill('SIGINT');
    // The reset timer must not hold the process: it ends now, not in 37 minutes (the test would time out).
    expect((await cli.done).code).toBe(130);
    expect(JSON.parse(readWork(repo.dir, 'state.json'))).toMatchObject({
      phase: 'REVIEW',
      inflight: null,
      awaiting: { kind: 'usage_limit', until: parked.until },
    });
  });

  it('killed (SIGKILL) while parked, then --resume: it waits for the same wake-up time, then goes on to DONE', async () => {
    const repo = tempRepoWithFakeScript(limitOnFirstReview(waking(3_000)));
    cleanup = repo.cleanup;
    const configFile = path.join(repo.dir, '.agent-collab', 'config.toml');
    writeFileSync(configFile, `${readWork(repo.dir, 'config.toml')}${CONFIG}`);
    const cli = runCli(['run', '--goal', 'g', '--auto', '--auto-approve', '--json'], {
      cwd: repo.dir,
      home: repo.home,
    });
    const parked = await cli.waitFor((e) => e.event === 'waiting');
    cli.child.kill('SIGKILL');
    await cli.done;
    const saved = JSON.parse(readWork(repo.dir, 'state.json'));
    expect(saved).toMatchObject({ inflight: null, awaiting: { kind: 'usage_limit', until: parked.until } });
    expect(Date.parse(saved.awaiting.until) - Date.parse(saved.awaiting.resetAt)).toBe(30_000);

    // A new process: its reviewer would approve at once; the saved wake-up time still holds it back.
    const starts: Array<{ kind: string; at: number }> = [];
    const agents = {
      planner: new FakeAgent('planner', { rules: [] }, { sessionPrefix: 'p' }),
      reviewer: timed(new FakeAgent('reviewer', { rules: [] }, { sessionPrefix: 'r' }), starts),
    };
    const again = await runAutoHeadless(repo, agents, { resume: 'resume' });
    expect(again.code).toBe(0);
    expect(again.events.find((e) => e.event === 'waiting')).toMatchObject({ until: parked.until });
    const review = starts.find((s) => s.kind === 'review');
    expect(review?.at).toBeGreaterThanOrEqual(Date.parse(String(parked.until)));
    expect(JSON.parse(readWork(repo.dir, 'state.json'))).toMatchObject({ phase: 'DONE' });
  });
});
