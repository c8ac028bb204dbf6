// run({ signal }): aborting stops the run as Ctrl+C stops `agent-collab run` — exit code 130, the state saved to be
// resumed, the report written, no agent process left — and the API never touches the process's signal handlers
// nor its stdout/stderr.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { run, type RunEvent } from '../../../src/index.js';
import { apiRepo, processesWith, type ApiRepo } from './api-helpers.js';

let repo: ApiRepo | undefined;
afterEach(() => repo?.cleanup());

/** A command no other test runs: the planner's first plan round is busy with it until stopped. */
const MARKER = 'sleep 4077';

describe('run() with an AbortSignal', () => {
  it('aborting mid-round: exit 130, state saved, report written, no agent process left; the run then resumes', async () => {
    repo = apiRepo({ rules: [{ when: { kind: 'write_plan', resumed: false }, do: { run: MARKER } }] });
    const sigint = process.listenerCount('SIGINT');
    const sigterm = process.listenerCount('SIGTERM');
    const stdout = vi.spyOn(process.stdout, 'write');
    const stderr = vi.spyOn(process.stderr, 'write');
    const controller = new AbortController();
    const events: RunEvent[] = [];
    const listenersDuringRun: number[] = [];
    const result = await run({
      cwd: repo.dir,
      goal: 'g',
      auto: true,
      config: repo.config,
      signal: controller.signal,
      onEvent: (e) => {
        events.push(e);
        if (e.event === 'agent' && e.type === 'command' && e.status === 'started' && e.command === MARKER) {
          listenersDuringRun.push(process.listenerCount('SIGINT'), process.listenerCount('SIGTERM'));
          // The command is running: it is there to be stopped.
          void processesWith(MARKER).then((found) => {
            expect(found).not.toEqual([]);
            controller.abort();
          });
        }
      },
    });
    expect(stdout).not.toHaveBeenCalled();
    expect(stderr).not.toHaveBeenCalled();
    expect(listenersDuringRun).toEqual([sigint, sigterm]);

    expect(result).toMatchObject({ exitCode: 130, phase: 'WRITE_PLAN' });
    expect(await processesWith(MARKER)).toEqual([]);
    const state = JSON.parse(readFileSync(path.join(repo.dir, '.agent-collab', 'state.json'), 'utf8')) as {
      phase: string;
      inflight: { kind: string } | null;
    };
    expect(state).toMatchObject({ phase: 'WRITE_PLAN', inflight: { kind: 'write_plan' } });
    expect(result.report).not.toBeNull();
    const report = readFileSync(result.report!, 'utf8');
    expect(report).toContain('\nending: "interrupted"\n');
    expect(events.at(-1)).toMatchObject({ event: 'done', exit_code: 130 });
    expect(existsSync(path.join(repo.dir, '.agent-collab', 'agent-collab.pid'))).toBe(false);

    const resumed = await run({ cwd: repo.dir, resume: true, auto: true, autoApprove: true, config: repo.config });
    expect(resumed).toMatchObject({ exitCode: 0, phase: 'DONE' });
  });

  it('an onEvent that throws stops the run the same way; run() rejects with one line saying so', async () => {
    repo = apiRepo({ rules: [{ when: { kind: 'write_plan', resumed: false }, do: { run: MARKER } }] });
    const err = await run({
      cwd: repo.dir,
      goal: 'g',
      auto: true,
      config: repo.config,
      onEvent: (e) => {
        if (e.event === 'agent' && e.type === 'command' && e.status === 'started') throw new Error('disk full\nat …');
      },
    }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toBe('onEvent threw (disk full); the run was stopped and saved: resume it with resume: true');
    expect(await processesWith(MARKER)).toEqual([]);
    const state = JSON.parse(readFileSync(path.join(repo.dir, '.agent-collab', 'state.json'), 'utf8')) as {
      inflight: { kind: string } | null;
    };
    expect(state.inflight).toEqual({ kind: 'write_plan' });
    expect(existsSync(path.join(repo.dir, '.agent-collab', 'agent-collab.pid'))).toBe(false);
  });

  it('a signal aborted before the start rejects with one line and starts nothing', async () => {
    repo = apiRepo({ rules: [] });
    const controller = new AbortController();
    controller.abort();
    await expect(run({ cwd: repo.dir, goal: 'g', config: repo.config, signal: controller.signal })).rejects.toThrow(
      /^the signal was aborted before run\(\) started; nothing ran$/,
    );
    expect(existsSync(path.join(repo.dir, '.agent-collab'))).toBe(false);
  });
});
