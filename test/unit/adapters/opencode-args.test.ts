import { describe, expect, it } from 'vitest';
import {
  buildOpencodeArgs,
  opencodeConfig,
  opencodeEnv,
  opencodeFlavor,
  opencodeOuterBox,
  opencodeStateDirs,
} from '../../../src/adapters/opencode/opencode-agent.js';

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

  it("opencode runs whole inside agent-collab's box with its data, cache and state dirs writable, its config dir not", () => {
    const flavor = opencodeFlavor();
    const env = { HOME: '/h', XDG_DATA_HOME: '/d' };
    expect(flavor.outerBox).toBeDefined();
    expect(opencodeStateDirs(env)).toEqual(['/d/opencode', '/h/.cache/opencode', '/h/.local/state/opencode']);
    expect(opencodeOuterBox(env).privateDirs).toEqual([{ path: '/h/.config/opencode' }]);
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
