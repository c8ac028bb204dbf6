// run() without decide: where the run waits for a person it ends with exit code 3, as `agent-collab run` does,
// the run saved and not reported (it is not over); a later run({ resume: true }) goes on from there.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run, type RunEvent, type UserError } from '../../../src/index.js';
import { gitLog } from '../../helpers/repo.js';
import { apiRepo, type ApiRepo } from './api-helpers.js';

let repo: ApiRepo | undefined;
afterEach(() => repo?.cleanup());

describe('run() without decide', () => {
  it('ends with exit 3 where a person is needed; run() again without resume says how; with resume it goes on to DONE', async () => {
    repo = apiRepo({ rules: [] });
    const first: RunEvent[] = [];
    // Manual mode (no auto): one round goes through, then the run waits for a go.
    const waiting = await run({ cwd: repo.dir, goal: 'g', config: repo.config, onEvent: (e) => first.push(e) });
    expect(waiting).toMatchObject({ exitCode: 3, phase: 'REVIEW', report: null });
    expect(waiting.steps).toEqual([]);
    expect(first.filter((e) => e.event === 'round').map((e) => e.event === 'round' && e.action)).toEqual([
      'write_plan',
    ]);
    expect(first.at(-2)).toMatchObject({ event: 'needs_human', kind: 'go' });
    expect(first.at(-1)).toMatchObject({ event: 'done', exit_code: 3 });
    expect(readFileSync(path.join(repo.dir, '.agent-collab', 'plan.md'), 'utf8')).toContain('## Steps');

    // An unfinished run is never taken over silently.
    const again = await run({ cwd: repo.dir, goal: 'another goal', config: repo.config }).catch(
      (e: unknown) => e as UserError,
    );
    expect(again).toMatchObject({
      message:
        'the repo has an unfinished run: pass resume: true to go on with it, or fresh: true to archive it and start a new one',
      exitCode: 3,
    });

    const later: RunEvent[] = [];
    const done = await run({
      cwd: repo.dir,
      resume: true,
      auto: true,
      autoApprove: true,
      config: repo.config,
      onEvent: (e) => later.push(e),
    });
    expect(done).toMatchObject({ exitCode: 0, phase: 'DONE' });
    // It went on from the review of the plan already written: no new plan.
    const actions = later.filter((e) => e.event === 'round').map((e) => e.event === 'round' && e.action);
    expect(actions[0]).toBe('review');
    expect(actions).not.toContain('write_plan');
    expect(gitLog(repo.dir).filter((s) => s.startsWith('[Step '))).toHaveLength(done.steps.length);
    expect(done.steps.every((s) => s.status === 'done' && s.commit !== null)).toBe(true);
    expect(existsSync(done.report!)).toBe(true);
  });
});
