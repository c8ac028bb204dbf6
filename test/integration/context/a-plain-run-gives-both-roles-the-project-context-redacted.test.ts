// `.agent-collab/context.md` (the project's layered context) reaches both roles in every run, not only in queue
// runs: a plain headless run's prompts carry it, with a secret in it redacted; a run in a worktree gets the copy
// seeded from the person's checkout.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import { createRunWorktree } from '../../../src/adapters/git/run-worktree.js';
import { runAutoHeadless } from '../../helpers/headless-run.js';
import { tempRepo } from '../../helpers/repo.js';

const GH = `ghp_${'c0nT3xtQw2'.repeat(3)}Zx81Pq`;
const writesA = {
  rules: [{ when: { kind: 'execute_step' as const, step: 1 }, do: { writeFiles: { 'a.txt': 'a\n' } } }],
};

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function repoWithContext(): ReturnType<typeof tempRepo> {
  const r = tempRepo();
  cleanups.push(r.cleanup);
  mkdirSync(path.join(r.dir, '.agent-collab'), { recursive: true });
  writeFileSync(path.join(r.dir, '.agent-collab', 'context.md'), `PROJECT-CONTEXT: we use tabs\ntoken ${GH}\n`);
  return r;
}

async function promptsOfRun(where: { dir: string; home: string }): Promise<{ code: number; prompts: string[] }> {
  const planner = new FakeAgent('planner', writesA);
  const reviewer = new FakeAgent('reviewer', writesA);
  const { code } = await runAutoHeadless(where, { planner, reviewer }, { goal: 'add a.txt' });
  return { code, prompts: [...planner.turns, ...reviewer.turns].map((t) => t.turn.prompt) };
}

describe("the project's context.md in a plain run", () => {
  it('reaches every prompt of both roles, with a secret in it redacted', async () => {
    const r = repoWithContext();
    const { code, prompts } = await promptsOfRun(r);

    expect(code).toBe(0);
    expect(prompts.length).toBeGreaterThan(3);
    for (const p of prompts) {
      expect(p).toContain('PROJECT-CONTEXT: we use tabs');
      expect(p).not.toContain(GH);
    }
  });

  it("reaches a run in a worktree (its copy seeded from the person's checkout)", async () => {
    const r = repoWithContext();
    const wt = await createRunWorktree({ repoRoot: r.dir, goal: 'add a.txt' });
    cleanups.push(() => rmSync(path.dirname(wt.path), { recursive: true, force: true }));
    const { code, prompts } = await promptsOfRun({ dir: wt.path, home: r.home });

    expect(code).toBe(0);
    for (const p of prompts) expect(p).toContain('PROJECT-CONTEXT: we use tabs');
    // The run committed on its branch, not in the person's checkout.
    expect(execFileSync('git', ['log', '--format=%s', '-1'], { cwd: r.dir, encoding: 'utf8' })).not.toMatch(/Step/);
  });

  it('is refused in one line, and sent to no agent, when it is a link leading out of the repo', async () => {
    const r = tempRepo();
    cleanups.push(r.cleanup);
    const outside = mkdtempSync(path.join(os.tmpdir(), 'ctx-outside-'));
    cleanups.push(() => rmSync(outside, { recursive: true, force: true }));
    writeFileSync(path.join(outside, 'notes.txt'), 'OUTSIDE-PRIVATE-NOTES\n');
    mkdirSync(path.join(r.dir, '.agent-collab'), { recursive: true });
    symlinkSync(path.join(outside, 'notes.txt'), path.join(r.dir, '.agent-collab', 'context.md'));
    const planner = new FakeAgent('planner', writesA);
    const reviewer = new FakeAgent('reviewer', writesA);
    // The CLI prints a UserError as its one line and exits with its code (2, bad input).
    const run = runAutoHeadless(r, { planner, reviewer }, { goal: 'add a.txt' });
    await expect(run).rejects.toThrow(
      new UserError(
        'context file .agent-collab/context.md leads outside the repository; replace the link with a regular file',
      ),
    );
    await expect(run).rejects.toMatchObject({ exitCode: 2 });
    expect([...planner.turns, ...reviewer.turns]).toHaveLength(0);
  });
});
