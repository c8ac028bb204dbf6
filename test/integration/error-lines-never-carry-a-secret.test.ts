// The one line agent-collab prints (or run() rejects with) for bad input repeats what was wrong: a config value
// given where another was expected. A key pasted into the wrong field of config.toml must not be printed back (CI
// logs keep stderr), cut short or whole, nor the value of one of agent-collab's secret variables.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../../src/index.js';
import { runCli } from '../helpers/cli.js';
import { tempRepo } from '../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

const GITHUB = `ghp_${'aB3dE5gH7jK9mN1pQ3sT'}${'5vX7zA9cE1gI3kM5'}`;
const PLAIN = 'correcthorsebatterystaple';

describe('error lines and secrets', () => {
  it('does not print back a token put into the wrong config field, however it is cut', async () => {
    const repo = tempRepo(`[roles]\nplanner = "${GITHUB}"\n`);
    cleanup = repo.cleanup;
    const r = await runCli(['run', '--goal', 'x'], { cwd: repo.dir, home: repo.home }).done;
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^agent-collab: config error in .*roles\.planner must be one of/);
    expect(r.stderr).not.toContain(GITHUB.slice(0, 16));
  });

  it('does not print back the value of a secret variable, on stderr nor in run()’s rejection', async () => {
    const repo = tempRepo(`[roles]\nplanner = "${PLAIN}"\n`);
    cleanup = repo.cleanup;
    const r = await runCli(['run', '--goal', 'x'], {
      cwd: repo.dir,
      home: repo.home,
      env: { DEPLOY_PASSWORD: PLAIN },
    }).done;
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/roles\.planner must be one of/);
    expect(r.stderr).not.toContain(PLAIN.slice(0, 12));

    process.env.DEPLOY_PASSWORD = PLAIN;
    try {
      const err = await run({ cwd: path.resolve(repo.dir), goal: 'x' }).then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(err?.message).toMatch(/roles\.planner must be one of/);
      expect(err?.message).not.toContain(PLAIN.slice(0, 12));
    } finally {
      delete process.env.DEPLOY_PASSWORD;
    }
  });
});
