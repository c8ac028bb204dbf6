// [roles] <role>_model / <role>_effort: the run's records (runs/<id>/timeline.md) say which model and effort each role
// played with; an effort the role's CLI does not take is a config error naming the key (exit 2).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../src/adapters/fake/fake-agent.js';
import { runHeadless } from '../../src/modes/headless.js';
import { UserError } from '../../src/core/errors.js';
import { sink, tempRepo } from '../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

async function runIn(config: string) {
  const repo = tempRepo(config);
  cleanup = repo.cleanup;
  const code = await runHeadless({
    cwd: repo.dir,
    homeDir: repo.home,
    goal: 'g',
    auto: false,
    json: true,
    resume: 'ask',
    agents: { planner: new FakeAgent('planner', { rules: [] }), reviewer: new FakeAgent('reviewer', { rules: [] }) },
    stdout: sink(),
    stderr: sink(),
  });
  return { code, dir: repo.dir };
}

describe('models per role', () => {
  it("the run's timeline records each role's agent, model and effort", async () => {
    const r = await runIn('[roles]\nplanner_model = "gpt-5.5"\nplanner_effort = "xhigh"\nreviewer_effort = "max"\n');
    expect(r.code).toBe(3); // manual mode: one round, then the go waits
    const runs = path.join(r.dir, '.agent-collab', 'runs');
    const [id] = readdirSync(runs);
    const timeline = readFileSync(path.join(runs, id ?? '', 'timeline.md'), 'utf8');
    expect(timeline).toContain(
      'agents: planner codex (model gpt-5.5, effort xhigh); reviewer claude (model CLI default, effort max)',
    );
  });

  it('an effort the role’s CLI does not take: a config error (exit 2) in one line naming the key', async () => {
    const err = await runIn('[roles]\nreviewer_effort = "minimal"\n').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).exitCode).toBe(2);
    expect((err as UserError).message).toMatch(
      /^config error in .*: roles\.reviewer_effort must be one claude takes: /,
    );
    expect((err as UserError).message).not.toContain('\n');
  });
});
