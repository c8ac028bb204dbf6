import { describe, expect, it } from 'vitest';
import {
  buildOpencodeArgs,
  opencodeConfig,
  opencodeEnv,
  opencodeFlavor,
  opencodeOuterBox,
  commandGatePluginPath,
  gateShellPath,
} from '../../../src/adapters/opencode/opencode-agent.js';
import { opencodeHome } from '../../../src/adapters/opencode/opencode-home.js';

const hook = { command: "bash --norc -p '/x/hook.sh'", env: { AC_HOOK_TOKEN: 't' }, timeoutSeconds: 90 };

describe('opencode argv, config and environment', () => {
  it('a new turn runs `opencode run --format json` with a fixed title; a resumed one names its session', () => {
    expect(buildOpencodeArgs(null)).toEqual(['run', '--format', 'json', '--title', 'agent-collab']);
    expect(buildOpencodeArgs('ses_1', { model: 'local/m1', effort: 'high' })).toEqual([
      'run',
      '--format',
      'json',
      '--title',
      'agent-collab',
      '--session',
      'ses_1',
      '--model',
      'local/m1',
      '--variant',
      'high',
    ]);
  });

  it('a read-only turn denies file edits; a write turn allows them; web fetches are denied in both', () => {
    expect(opencodeConfig({ access: 'read-only' }, null)).toMatchObject({
      permission: { edit: 'deny', webfetch: 'deny' },
    });
    expect(opencodeConfig({ access: 'workspace-write' }, null)).toMatchObject({
      permission: { edit: 'allow', webfetch: 'deny' },
    });
  });

  it('with a hook the config loads the shipped command gate plugin and the env names the hook command', () => {
    const env = opencodeEnv({ access: 'workspace-write', cwd: '/repo' }, hook, { PWD: '/elsewhere', HOME: '/h' });
    const config = JSON.parse(env.OPENCODE_CONFIG_CONTENT ?? '{}') as { plugin?: string[] };
    expect(config.plugin).toHaveLength(1);
    expect(config.plugin?.[0]).toMatch(/^file:\/\/.*\/opencode\/command-gate-plugin\.js$/);
    expect(env.AGENT_COLLAB_OPENCODE_HOOK).toBe(hook.command);
    expect(env.AGENT_COLLAB_OPENCODE_HOOK_TIMEOUT_SECONDS).toBe('90');
  });

  it("the repo's own opencode config is never loaded and opencode's project dir is the turn's cwd, not PWD", () => {
    const env = opencodeEnv({ access: 'read-only', cwd: '/repo' }, null, { PWD: '/elsewhere' });
    expect(env.OPENCODE_DISABLE_PROJECT_CONFIG).toBe('1');
    expect(env.PWD).toBe('/repo');
    expect(JSON.parse(env.OPENCODE_CONFIG_CONTENT ?? '{}')).not.toHaveProperty('plugin');
  });

  it("opencode's data, cache and state live in agent-collab's home for the repo; the person's show only their login", () => {
    const env = { HOME: '/h', XDG_DATA_HOME: '/d' };
    const home = opencodeHome(env, '/repo');
    expect(home).toMatch(/^\/h\/\.local\/state\/agent-collab\/opencode\/[0-9a-f]{16}$/);
    const child = opencodeEnv({ access: 'workspace-write', cwd: '/repo' }, null, env);
    expect([child.XDG_DATA_HOME, child.XDG_CACHE_HOME, child.XDG_STATE_HOME]).toEqual(
      ['data', 'cache', 'state'].map((d) => `${home}/${d}`),
    );
    expect(opencodeFlavor().outerBox).toBeDefined();
    const box = opencodeOuterBox(env, '/repo');
    expect(box.stateDirs).toEqual(['data', 'cache', 'state'].map((d) => `${home}/${d}/opencode`));
    expect(box.scratchDirs).toEqual([`${home}/cache/opencode/bin`, `${home}/cache/opencode/node_modules`]);
    expect(box.privateDirs).toEqual([
      { path: '/h/.config/opencode' },
      { path: '/d/opencode', only: ['auth.json'] },
      { path: '/h/.cache/opencode', only: [] },
      { path: '/h/.local/state/opencode', only: [] },
      { path: '/h/.local/state/agent-collab/opencode', only: [home.split('/').pop()] },
    ]);
    // Only the command gate's own files (so they are there wherever agent-collab is installed).
    expect(box.readOnly).toEqual([gateShellPath(), commandGatePluginPath()]);
  });

  it('an OPENCODE_CONFIG_DIR is mounted read-only like the global config dir, an OPENCODE_CONFIG file read-only', () => {
    const env = { HOME: '/h', OPENCODE_CONFIG_DIR: '/shared/oc', OPENCODE_CONFIG: '/repo/oc.json' };
    const box = opencodeOuterBox(env, '/repo');
    expect(box.privateDirs?.slice(0, 2)).toEqual([{ path: '/h/.config/opencode' }, { path: '/shared/oc' }]);
    expect(box.readOnly).toEqual([gateShellPath(), commandGatePluginPath(), '/repo/oc.json']);
    const child = opencodeEnv({ access: 'workspace-write', cwd: '/repo' }, null, env);
    expect([child.OPENCODE_CONFIG_DIR, child.OPENCODE_CONFIG]).toEqual(['/shared/oc', '/repo/oc.json']);
  });

  it('no formatter and no LSP server runs: both are off in the config agent-collab layers on top', () => {
    for (const access of ['read-only', 'workspace-write'] as const)
      expect(opencodeConfig({ access }, hook)).toMatchObject({ formatter: false, lsp: false });
  });

  it('with a hook, bash runs through the gate shell and every turn gets a fresh gate token', () => {
    const turn = { access: 'workspace-write', cwd: '/repo' } as const;
    const a = opencodeEnv(turn, hook, { HOME: '/h' });
    const b = opencodeEnv(turn, hook, { HOME: '/h' });
    const config = JSON.parse(a.OPENCODE_CONFIG_CONTENT ?? '{}') as { shell?: string };
    expect(config.shell).toMatch(/\/opencode\/gate-shell\/bash$/);
    expect(a.SHELL).toBe(config.shell);
    expect(a.AGENT_COLLAB_OPENCODE_GATE_TOKEN).toMatch(/^[0-9a-f]{48}$/);
    expect(b.AGENT_COLLAB_OPENCODE_GATE_TOKEN).not.toBe(a.AGENT_COLLAB_OPENCODE_GATE_TOKEN);
  });
});
