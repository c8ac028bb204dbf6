// bin/agent-collab starts Node without NODE_EXTRA_CA_CERTS (Node 20 parses that bundle at every start, ~80 ms) and
// agent-collab puts it back for everything it runs. A bundle path that does not exist shows which process read it:
// Node warns "Ignoring extra certs from …" when it does.
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, CLI, runToEnd as run } from '../helpers/cli.js';
import { tempRepoWithFakeScript } from '../helpers/repo.js';

const MISSING_BUNDLE = '/nonexistent/agent-collab-test/ca.pem';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function envFor(home: string, extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), NO_COLOR: '1', ...extra };
  delete env.AGENT_COLLAB_HELD_NODE_EXTRA_CA_CERTS;
  return env;
}

describe('bin/agent-collab', () => {
  it('starts Node without the extra CA bundle (node dist/cli.js reads it), also through a symlink as npm links it', async () => {
    const repo = tempRepoWithFakeScript({ rules: [] });
    cleanup = repo.cleanup;
    const env = envFor(repo.home, { NODE_EXTRA_CA_CERTS: MISSING_BUNDLE });
    const direct = await run(process.execPath, [CLI, '--version'], { cwd: repo.dir, env });
    expect(direct.stderr).toContain(`Ignoring extra certs from \`${MISSING_BUNDLE}\``);

    const viaBin = await run(BIN, ['--version'], { cwd: repo.dir, env });
    expect(viaBin).toEqual({ code: 0, stdout: direct.stdout, stderr: '' });

    const linked = path.join(repo.home, 'node_modules', '.bin');
    await run('mkdir', ['-p', linked], { cwd: repo.home, env });
    symlinkSync(path.relative(linked, BIN), path.join(linked, 'agent-collab'));
    const viaLink = await run(path.join(linked, 'agent-collab'), ['--version'], { cwd: repo.dir, env });
    expect(viaLink).toEqual({ code: 0, stdout: direct.stdout, stderr: '' });
  });

  it('gives the variable back, unchanged, to the commands a run starts', async () => {
    const record = 'printenv NODE_EXTRA_CA_CERTS > ca.txt; printenv AGENT_COLLAB_HELD_NODE_EXTRA_CA_CERTS > held.txt; true';
    const repo = tempRepoWithFakeScript({ rules: [{ when: { kind: 'review' }, do: { verdict: 'APPROVED', text: 'Fine.' } }, { when: { kind: 'execute_step' }, do: { run: record } }] });
    cleanup = repo.cleanup;
    const r = await run(BIN, ['run', '--goal', 'g', '--auto', '--auto-approve', '--json'], { cwd: repo.dir, env: envFor(repo.home, { NODE_EXTRA_CA_CERTS: MISSING_BUNDLE }) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(path.join(repo.dir, 'ca.txt'), 'utf8')).toBe(`${MISSING_BUNDLE}\n`);
    expect(readFileSync(path.join(repo.dir, 'held.txt'), 'utf8')).toBe('');
  });

  it('leaves the variable unset when it was', async () => {
    const record = 'printenv NODE_EXTRA_CA_CERTS > ca.txt; printenv AGENT_COLLAB_HELD_NODE_EXTRA_CA_CERTS > held.txt; true';
    const repo = tempRepoWithFakeScript({ rules: [{ when: { kind: 'review' }, do: { verdict: 'APPROVED', text: 'Fine.' } }, { when: { kind: 'execute_step' }, do: { run: record } }] });
    cleanup = repo.cleanup;
    const env = envFor(repo.home, {});
    delete env.NODE_EXTRA_CA_CERTS;
    const r = await run(BIN, ['run', '--goal', 'g', '--auto', '--auto-approve', '--json'], { cwd: repo.dir, env });
    expect(r.code).toBe(0);
    expect(existsSync(path.join(repo.dir, 'ca.txt'))).toBe(true); // the command ran
    expect(readFileSync(path.join(repo.dir, 'ca.txt'), 'utf8')).toBe('');
    expect(readFileSync(path.join(repo.dir, 'held.txt'), 'utf8')).toBe('');
  });
});
