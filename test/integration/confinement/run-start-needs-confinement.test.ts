// The built CLI: with bubblewrap missing and the sandbox on, a run does not start (one line naming the fix, no
// agent round spent); with `[safety] sandbox = "off"` it starts with a warning; doctor reports all three states.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { tempRepo } from '../../helpers/repo.js';
import { pathWithout } from './helpers.js';

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

const FAKES = '[roles]\nplanner = "fake"\nreviewer = "fake"\n';

function setup(config: string) {
  const repo = tempRepo(config);
  const bin = pathWithout(['bwrap']);
  cleanups.push(repo.cleanup, bin.cleanup);
  return { repo, PATH: bin.PATH };
}

describe('a run without confinement', () => {
  it('sandbox on and no bubblewrap: exit 2 with one line naming the fix, before any agent round', async () => {
    const { repo, PATH } = setup(FAKES);
    const r = await runCli(['run', '--goal', 'g', '--auto', '--json'], {
      cwd: repo.dir,
      home: repo.home,
      env: { PATH },
    }).done;
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /bubblewrap \(bwrap\) is not installed.*apt-get install bubblewrap socat.*\[safety\] sandbox = "off"/,
    );
    expect(r.stdout).toBe('');
    expect(existsSync(path.join(repo.dir, '.agent-collab', 'plan.md'))).toBe(false);
    expect(existsSync(path.join(repo.dir, '.agent-collab', 'state.json'))).toBe(false);
  });

  it('sandbox off: the run starts, and its first event is the warning', async () => {
    const { repo, PATH } = setup(`${FAKES}[safety]\nsandbox = "off"\n`);
    const r = await runCli(['run', '--goal', 'g', '--json'], { cwd: repo.dir, home: repo.home, env: { PATH } }).done;
    const events = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { event: string; message?: string });
    expect(events[0]).toMatchObject({ event: 'notice' });
    expect(events[0]!.message).toMatch(/^warning: confinement is off \(\[safety\] sandbox = "off"\)/);
    expect(existsSync(path.join(repo.dir, '.agent-collab', 'state.json'))).toBe(true);
  });
});

describe('doctor reports confinement', () => {
  it('works here: ok', async () => {
    const repo = tempRepo(FAKES);
    cleanups.push(repo.cleanup);
    const r = await runCli(['doctor'], { cwd: repo.dir, home: repo.home }).done;
    expect(r.stdout).toMatch(/^ok {6}confinement: bubblewrap and socat work/m);
  });

  it('missing: a problem with the install command and the opt-out', async () => {
    const { repo, PATH } = setup(FAKES);
    const r = await runCli(['doctor'], { cwd: repo.dir, home: repo.home, env: { PATH } }).done;
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /PROBLEM confinement: bubblewrap \(bwrap\) is not installed: no write turn can start\n\s+fix: apt-get install bubblewrap socat \(Debian\/Ubuntu\), or set \[safety\] sandbox = "off"/,
    );
  });

  it('off: said plainly', async () => {
    const { repo, PATH } = setup(`${FAKES}[safety]\nsandbox = "off"\n`);
    const r = await runCli(['doctor'], { cwd: repo.dir, home: repo.home, env: { PATH } }).done;
    expect(r.stdout).toMatch(/^ok {6}confinement: OFF \(\[safety\] sandbox = "off"\): .* run unconfined$/m);
  });
});
