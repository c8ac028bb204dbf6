// opencode runs a command with plain bash when its configured shell is missing, and goes on without a plugin it
// cannot load: the command gate's two files must be inside the box wherever agent-collab is installed. Under /tmp
// (private in the box) they were not, and a fresh-clone CI there let an agent's chmod run. Real bwrap.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { outerBoxCommand } from '../../../src/adapters/confinement/index.js';
import {
  commandGatePluginPath,
  gateShellPath,
  opencodeOuterBox,
} from '../../../src/adapters/opencode/opencode-agent.js';
import { tempRepo } from '../../helpers/repo.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe("opencode's command gate files in the box", () => {
  it('are there, read-only, when agent-collab lives under /tmp', () => {
    const repo = tempRepo();
    cleanups.push(repo.cleanup);
    const install = mkdtempSync(path.join('/tmp', 'agent-collab-install-'));
    cleanups.push(() => rmSync(install, { recursive: true, force: true }));
    const shell = path.join(install, 'gate-shell', 'bash');
    const plugin = path.join(install, 'command-gate-plugin.js');
    mkdirSync(path.dirname(shell));
    copyFileSync(gateShellPath(), shell);
    copyFileSync(commandGatePluginPath(), plugin);
    const workdir = path.join(repo.dir, '.agent-collab');
    mkdirSync(workdir, { recursive: true });
    const env = { ...process.env, HOME: repo.home, XDG_CONFIG_HOME: path.join(repo.home, '.config') };
    mkdirSync(path.join(repo.home, '.config', 'opencode'), { recursive: true });
    const probe = `test -x ${shell} && test -r ${plugin} && echo present; (echo x >> ${shell}) 2>/dev/null || echo read-only`;
    const boxed = outerBoxCommand(
      opencodeOuterBox(env, repo.dir, [shell, plugin]),
      { repo: repo.dir, workdir },
      false,
      'sh',
      ['-c', probe],
      env,
    );
    expect(boxed).not.toBeNull();
    const out = execFileSync(boxed!.command, boxed!.args, { cwd: repo.dir, env, encoding: 'utf8' });
    expect(out.trim().split('\n')).toEqual(['present', 'read-only']);
  });
});
