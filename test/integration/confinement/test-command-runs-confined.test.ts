// agent-collab's own test command runs in the same bubblewrap box as a write turn: it can build and write in the
// repo, but not change $HOME, .git or .agent-collab; with the sandbox off it is not boxed.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentConfinement } from '../../../src/adapters/confinement/index.js';
import { ShellTestRunner } from '../../../src/adapters/test-runner.js';
import { tempRepo } from '../../helpers/repo.js';
import { gitSnapshot, mkdirs } from './helpers.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

const settings = { default_command: 'auto', timeout_seconds: 60 };

function setup() {
  const repo = tempRepo();
  cleanup = repo.cleanup;
  const workdir = path.join(repo.dir, '.agent-collab');
  mkdirs(workdir);
  writeFileSync(path.join(workdir, 'plan.md'), 'PLAN\n');
  return { repo, workdir };
}

const HOSTILE =
  'echo built > out.txt; echo x >> "$HOME/.bashrc"; echo x > .agent-collab/plan.md; git commit -q --allow-empty -m x; exit 0';

describe('the test command', () => {
  it('runs confined: its writes in the repo stick, its writes to $HOME, .agent-collab and .git do not', async () => {
    const { repo, workdir } = setup();
    const before = gitSnapshot(repo.dir);
    const home = process.env.HOME;
    process.env.HOME = repo.home; // the runner passes agent-collab's own environment on
    try {
      const runner = new ShellTestRunner(repo.dir, settings, () => undefined, agentConfinement(workdir));
      const r = await runner.run(HOSTILE, { fullOutputFile: null });
      expect(r.passed).toBe(true);
      expect(r.output).toMatch(/Read-only file system/);
    } finally {
      process.env.HOME = home;
    }
    expect(readFileSync(path.join(repo.dir, 'out.txt'), 'utf8')).toBe('built\n');
    expect(existsSync(path.join(repo.home, '.bashrc'))).toBe(false);
    expect(readFileSync(path.join(workdir, 'plan.md'), 'utf8')).toBe('PLAN\n');
    expect(gitSnapshot(repo.dir)).toBe(before);
  });

  it('does not start when confinement is unavailable: the result says why and nothing ran', async () => {
    const { repo, workdir } = setup();
    const unavailable = () => Promise.resolve('cannot confine: bubblewrap (bwrap) is not installed');
    const runner = new ShellTestRunner(repo.dir, settings, () => undefined, agentConfinement(workdir, unavailable));
    const r = await runner.run('echo ran > ran.txt', { fullOutputFile: null });
    expect(r).toMatchObject({ passed: false, exitCode: null });
    expect(r.output).toContain('bubblewrap (bwrap) is not installed');
    expect(existsSync(path.join(repo.dir, 'ran.txt'))).toBe(false);
  });

  it('with the sandbox off (no confinement given) it runs unconfined', async () => {
    const { repo, workdir } = setup();
    const runner = new ShellTestRunner(repo.dir, settings, () => undefined, null);
    const r = await runner.run('echo changed > .agent-collab/plan.md', { fullOutputFile: null });
    expect(r.passed).toBe(true);
    expect(readFileSync(path.join(workdir, 'plan.md'), 'utf8')).toBe('changed\n');
  });
});
