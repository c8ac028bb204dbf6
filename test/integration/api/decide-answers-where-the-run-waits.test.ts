// run({ decide }): where the run would wait for a person, decide is asked in-process with the needs_human event and
// answers with the choices of `--decide` / `--answer`; an answer that is not a choice there rejects, the run saved.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run, type NeedsHumanEvent, type RunEvent } from '../../../src/index.js';
import { gitLog } from '../../helpers/repo.js';
import { apiRepo, type ApiRepo } from './api-helpers.js';

const repos: ApiRepo[] = [];
afterEach(() => repos.splice(0).forEach((r) => r.cleanup()));

function repoWith(script: unknown): ApiRepo {
  const r = apiRepo(script);
  repos.push(r);
  return r;
}

const ALWAYS_CHANGES = {
  rules: [{ when: { kind: 'review' }, do: { verdict: 'CHANGES_REQUIRED', text: '## Comments\n1. no' } }],
};

function savedState(dir: string): { phase: string; awaiting: { kind: string } | null } {
  return JSON.parse(readFileSync(path.join(dir, '.agent-collab', 'state.json'), 'utf8')) as {
    phase: string;
    awaiting: { kind: string } | null;
  };
}

describe('run() with decide', () => {
  it('answers the iteration cap in-process ("approve"): the plan is executed to DONE in the same run()', async () => {
    const repo = repoWith(ALWAYS_CHANGES);
    const asked: NeedsHumanEvent[] = [];
    const events: RunEvent[] = [];
    const result = await run({
      cwd: repo.dir,
      goal: 'g',
      auto: true,
      autoApprove: true,
      maxIterations: 1,
      config: repo.config,
      onEvent: (e) => events.push(e),
      decide: (needsHuman) => {
        asked.push(needsHuman);
        return 'approve';
      },
    });
    expect(result).toMatchObject({ phase: 'DONE', exitCode: 0 });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ event: 'needs_human', kind: 'arbitration', iteration: 1 });
    expect(asked[0]!.choices.map((c) => c.flag)).toContain('--decide approve');
    // decide got the very event onEvent got; the run went on after it.
    const at = events.findIndex((e) => e.event === 'needs_human');
    expect(events[at]).toEqual(asked[0]);
    expect(events.slice(at).some((e) => e.event === 'phase' && e.to === 'EXECUTE')).toBe(true);
    expect(gitLog(repo.dir).filter((s) => s.startsWith('[Step '))).toHaveLength(result.steps.length);
  });

  it("answers an agent's question with { answer }: the answer goes back to the planner and the run goes on", async () => {
    const repo = repoWith({
      rules: [{ when: { role: 'planner', kind: 'write_plan' }, times: 1, do: { question: 'Tabs or spaces?' } }],
    });
    const asked: NeedsHumanEvent[] = [];
    const result = await run({
      cwd: repo.dir,
      goal: 'g',
      auto: true,
      autoApprove: true,
      config: repo.config,
      decide: async (needsHuman) => {
        asked.push(needsHuman);
        await new Promise((r) => setTimeout(r, 10)); // an asynchronous answer, as from a person or a service
        return { answer: 'tabs, always' };
      },
    });
    expect(asked.map((e) => e.kind)).toEqual(['question']);
    expect(asked[0]).toMatchObject({ role: 'planner', text: 'Tabs or spaces?' });
    expect(result).toMatchObject({ phase: 'DONE', exitCode: 0 });
    expect(readFileSync(path.join(repo.dir, '.agent-collab', 'log.md'), 'utf8')).toContain('tabs, always');
  });

  it('a choice that is not one there rejects with one line; the run is saved, unlocked, and resumes', async () => {
    const repo = repoWith(ALWAYS_CHANGES);
    const first = run({
      cwd: repo.dir,
      goal: 'g',
      auto: true,
      maxIterations: 1,
      config: repo.config,
      decide: () => 'retry', // a --decide word, but not at the iteration cap
    });
    await expect(first).rejects.toThrow(
      /^decide returned "retry", which is not a choice where the run waits \(arbitration\); return one of approve \| continue:N \| edit \| cancel, or nothing to stop there/,
    );
    const err = (await first.catch((e: unknown) => e)) as Error;
    expect(err.message).not.toContain('\n');
    expect(savedState(repo.dir)).toMatchObject({ awaiting: { kind: 'arbitration' } });
    expect(existsSync(path.join(repo.dir, '.agent-collab', 'agent-collab.pid'))).toBe(false);

    // Not even a --decide spelling: the same kind of line.
    await expect(run({ cwd: repo.dir, resume: true, config: repo.config, decide: () => 'make it so' })).rejects.toThrow(
      /^decide returned "make it so", which is not a choice where the run waits \(arbitration\)/,
    );

    // A decide that fails: run() rejects with its error, the run still saved where it waits.
    const failure = new Error('nobody on duty');
    await expect(
      run({
        cwd: repo.dir,
        resume: true,
        config: repo.config,
        decide: () => Promise.reject(failure),
      }),
    ).rejects.toBe(failure);
    expect(savedState(repo.dir)).toMatchObject({ awaiting: { kind: 'arbitration' } });

    const resumed = await run({
      cwd: repo.dir,
      resume: true,
      auto: true,
      autoApprove: true,
      config: repo.config,
      decide: () => 'approve',
    });
    expect(resumed).toMatchObject({ phase: 'DONE', exitCode: 0 });
  });
});
