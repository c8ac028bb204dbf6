// run() used by a program that starts many: runs in several repos at once, all following one signal, add
// no listener per run to the process or the signal (no MaxListeners warning) and all stop when it aborts; a second
// run() in a repo whose run is under way is refused with one line, the first going on untouched; resume: true
// with nothing to resume says so in the API's words, not the CLI's.
import { getEventListeners } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run, type RunResult } from '../../../src/index.js';
import { apiRepo, type ApiRepo } from './api-helpers.js';

const repos: ApiRepo[] = [];
afterEach(() => {
  while (repos.length) repos.pop()!.cleanup();
});

const HANG_PLANNER = { rules: [{ when: { kind: 'write_plan' }, do: { hang: true } }] };

const state = (repo: ApiRepo): { goal: string; inflight: unknown } =>
  JSON.parse(readFileSync(path.join(repo.dir, '.agent-collab', 'state.json'), 'utf8')) as {
    goal: string;
    inflight: unknown;
  };

/** Starts a run whose planner hangs; resolves once its planner's session has started. */
async function hangingRun(repo: ApiRepo, signal: AbortSignal): Promise<{ result: Promise<RunResult> }> {
  let started!: () => void;
  const planning = new Promise<void>((resolve) => (started = resolve));
  const result = run({
    cwd: repo.dir,
    goal: 'g',
    auto: true,
    config: repo.config,
    signal,
    onEvent: (e) => {
      if (e.event === 'agent' && e.role === 'planner' && e.type === 'session') started();
    },
  });
  await Promise.race([planning, result.then(() => Promise.reject(new Error('the run ended before planning')))]);
  return { result };
}

describe('run() called many times in one process', () => {
  it('runs at once on one signal add no listener per run to the process or the signal; the abort stops all (130)', async () => {
    // Three runs show what twelve would: a listener added per run (Node warns past 10 on one emitter) counts 3.
    const counts = (): Map<string | symbol, number> =>
      new Map(
        [process, process.stdout, process.stderr, process.stdin].flatMap((emitter, i) =>
          emitter.eventNames().map((name) => [`${i}:${String(name)}`, emitter.listenerCount(name)] as const),
        ),
      );
    const before = counts();
    const controller = new AbortController();
    const runs = await Promise.all(
      Array.from({ length: 3 }, () => {
        const repo = apiRepo(HANG_PLANNER);
        repos.push(repo);
        return hangingRun(repo, controller.signal);
      }),
    );
    // All three are mid-round now.
    for (const [name, n] of counts()) expect(n - (before.get(name) ?? 0), String(name)).toBeLessThanOrEqual(1);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);

    controller.abort();
    const results = await Promise.all(runs.map((r) => r.result));
    expect(results.map((r) => r.exitCode)).toEqual([130, 130, 130]);
    for (const repo of repos) expect(state(repo).inflight).toEqual({ kind: 'write_plan' });
    expect(process.listenerCount('beforeExit')).toBe(before.get('0:beforeExit') ?? 0);
  });

  it('a second run() in a repo whose run is under way is refused with one line; the first goes on, and stops saved and unlocked', async () => {
    const repo = apiRepo(HANG_PLANNER);
    repos.push(repo);
    const controller = new AbortController();
    const first = await hangingRun(repo, controller.signal);

    for (const second of [
      { cwd: repo.dir, goal: 'another goal', config: repo.config },
      { cwd: repo.dir, resume: true, config: repo.config },
    ])
      await expect(run(second)).rejects.toMatchObject({
        message:
          'a run is already under way in this repo in this process; wait for it to end (one run per repo at a time)',
        exitCode: 2,
      });
    expect(state(repo)).toMatchObject({ goal: 'g', inflight: { kind: 'write_plan' } });

    controller.abort();
    expect((await first.result).exitCode).toBe(130);
    // The refusals took nothing from it: it is saved mid-round and unlocked, to be resumed.
    expect(state(repo)).toMatchObject({ goal: 'g', inflight: { kind: 'write_plan' } });
    expect(existsSync(path.join(repo.dir, '.agent-collab', 'agent-collab.pid'))).toBe(false);
  });

  it('resume: true with no unfinished run rejects in the API’s words (goal, not --goal), starting nothing', async () => {
    const repo = apiRepo({ rules: [] });
    repos.push(repo);
    await expect(run({ cwd: repo.dir, resume: true, config: repo.config })).rejects.toMatchObject({
      message: 'there is no unfinished run to resume here; start one with run({ cwd, goal: "…" })',
      exitCode: 2,
    });
    expect(existsSync(path.join(repo.dir, '.agent-collab', 'state.json'))).toBe(false);
  });
});
