// run() with bad input rejects with one line (a UserError with the CLI's exit code), the same line the CLI prints
// for the same mistake; nothing is started.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run, UserError, type RunOptions } from '../../../src/index.js';
import { runCli } from '../../helpers/cli.js';
import { apiRepo, type ApiRepo } from './api-helpers.js';

let repo: ApiRepo | undefined;
const dirs: string[] = [];
afterEach(() => {
  repo?.cleanup();
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

async function rejection(options: RunOptions): Promise<UserError> {
  const err = await run(options).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UserError);
  expect((err as UserError).message).not.toContain('\n');
  return err as UserError;
}

describe('run() with bad input', () => {
  it('a bad config value is rejected with the line the CLI gives for it in config.toml', async () => {
    repo = apiRepo({ rules: [] });
    const err = await rejection({ cwd: repo.dir, goal: 'g', config: { workflow: { max_iterations: 0 } } });
    expect(err.exitCode).toBe(2);
    expect(err.message).toMatch(/^config error in the config option of run\(\): /);

    mkdirSync(path.join(repo.dir, '.agent-collab'), { recursive: true });
    const file = path.join(repo.dir, '.agent-collab', 'config.toml');
    writeFileSync(file, '[workflow]\nmax_iterations = 0\n');
    const cli = await runCli(['run', '--goal', 'g'], { cwd: repo.dir, home: repo.home }).done;
    expect(cli.code).toBe(2);
    const detail = err.message.replace('config error in the config option of run(): ', '');
    expect(cli.stderr).toBe(`agent-collab: config error in ${file}: ${detail}\n`);
    expect(existsSync(path.join(repo.dir, '.agent-collab', 'state.json'))).toBe(false);
  });

  it('unknown config tables and wrong agent names are named, with what is allowed', async () => {
    repo = apiRepo({ rules: [] });
    const typo = await rejection({ cwd: repo.dir, goal: 'g', config: { wokflow: {} } as RunOptions['config'] });
    expect(typo.message).toMatch(/^config error in the config option of run\(\): unknown key wokflow \(known: roles,/);
    const agent = await rejection({
      cwd: repo.dir,
      goal: 'g',
      config: { roles: { planner: 'gpt' } } as unknown as RunOptions['config'],
    });
    expect(agent.message).toContain(
      'roles.planner must be one of "codex", "claude", "gemini", "opencode", "fake" (got "gpt")',
    );
    expect(existsSync(path.join(repo.dir, '.agent-collab'))).toBe(false);
  });

  it('a cwd outside a git repository is rejected with the CLI’s line', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ac-nogit-'));
    const home = mkdtempSync(path.join(os.tmpdir(), 'ac-home-'));
    dirs.push(dir, home);
    const err = await rejection({ cwd: dir, goal: 'g' });
    const cli = await runCli(['run', '--goal', 'g'], { cwd: dir, home }).done;
    expect(cli.code).toBe(err.exitCode);
    expect(cli.stderr).toBe(`agent-collab: ${err.message}\n`);
    expect(err.message).toContain('is not inside a git repository');
  });

  it('options of the wrong shape name the option', async () => {
    repo = apiRepo({ rules: [] });
    const missing = path.join(repo.dir, 'nope');
    expect((await rejection({ cwd: missing, goal: 'g' })).message).toBe(
      `cwd ${missing} does not exist; pass an existing directory`,
    );
    expect((await rejection({ cwd: repo.dir, goal: 'g', maxIterations: 0 })).message).toBe(
      'maxIterations must be a whole number from 1 to 100 (got 0)',
    );
    expect((await rejection({ cwd: repo.dir, resume: true, fresh: true })).message).toBe(
      'resume and fresh cannot be used together; pick one',
    );
    expect((await rejection({ cwd: repo.dir, goal: 'g', decide: 'approve' } as unknown as RunOptions)).message).toBe(
      'decide must be a function',
    );
    expect((await rejection({ cwd: repo.dir, config: repo.config })).message).toBe(
      'run() needs a goal to start a run, or resume: true to go on with an unfinished one',
    );
  });
});
