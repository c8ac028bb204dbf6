// A step's base snapshot (what its commit is measured against) is taken when its round is let through, not when
// the previous step was committed: what the person changes while the run waits for Enter is theirs, and stays out
// of the next step's commit. (The engine starts that snapshot beside the state writes of the decision.)
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import type { Engine } from '../../../src/engine/runner.js';
import type { WorkflowState } from '../../../src/core/types.js';
import { openSession } from '../../../src/modes/session.js';
import { gitLog, tempRepo } from '../../helpers/repo.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => cleanup?.());

async function until<T>(get: () => T | null | undefined | false): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const v = get();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('timed out waiting');
}

function committedFiles(dir: string, rev: string): string[] {
  return execFileSync('git', ['show', '--name-only', '--format=', rev], { cwd: dir, encoding: 'utf8' })
    .trim()
    .split('\n');
}

describe("a step's base snapshot", () => {
  it("is taken when the person lets the step through: their edits in between stay out of the step's commit", async () => {
    const repo = tempRepo('[test]\nfallback_to_agent = false\n');
    const planner = new FakeAgent('planner', {
      rules: [
        { when: { step: 1 }, do: { writeFiles: { 'a.txt': 'a\n' }, text: 'Summary: add a.txt' } },
        { when: { step: 2 }, do: { writeFiles: { 'b.txt': 'b\n' }, text: 'Summary: add b.txt' } },
      ],
    });
    const session = await openSession({
      cwd: repo.dir,
      homeDir: repo.home,
      agents: { planner, reviewer: new FakeAgent('reviewer', { rules: [] }) },
    });
    const base = session.newRun('two files', 'manual');
    const steps = [
      { n: 1, title: 'Add a.txt', done: false },
      { n: 2, title: 'Add b.txt', done: false },
    ];
    const state: WorkflowState = {
      ...base,
      phase: 'EXECUTE',
      steps,
      currentStep: 1,
      inflight: { kind: 'execute_step', step: 1 },
    };
    const engine: Engine = session.engineFor(state);
    cleanup = async () => {
      await engine.close();
      await session.close();
      repo.cleanup();
    };
    await engine.resume();

    // Step 1 is committed; manual mode waits for the person before step 2.
    await until(() => engine.state.awaiting?.kind === 'go' && engine.state.steps[0]?.done);
    expect(gitLog(repo.dir)[0]).toBe('[Step 1] add a.txt');
    // Meanwhile the person edits a tracked file and adds one of their own.
    writeFileSync(path.join(repo.dir, 'README.md'), '# test\nthe person was here\n');
    writeFileSync(path.join(repo.dir, 'person.txt'), 'mine\n');

    await engine.dispatch({ type: 'go' });
    await until(() => engine.state.phase === 'DONE' || engine.state.awaiting);
    expect(engine.state.phase).toBe('DONE');
    expect(gitLog(repo.dir).slice(0, 2)).toEqual(['[Step 2] add b.txt', '[Step 1] add a.txt']);
    expect(committedFiles(repo.dir, 'HEAD')).toEqual(['b.txt']);
    const status = execFileSync('git', ['status', '--porcelain'], { cwd: repo.dir, encoding: 'utf8' });
    expect(status).toContain(' M README.md');
    expect(status).toContain('?? person.txt');
  });
});
