// opencode's bash tool runs every command through agent-collab's gate shell (config `shell`). The shell runs a
// command only with this turn's pass, which only agent-collab's plugin hands out for a call it approved; the command
// itself never sees the token. Real shell, a command that makes a file.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gateShellPath } from '../../../src/adapters/opencode/opencode-agent.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(env: Record<string, string>) {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ac-gate-'));
  const made = path.join(dir, 'made.txt');
  const script = `printf '%s' "\${AGENT_COLLAB_OPENCODE_GATE_TOKEN:-none}" > ${JSON.stringify(made)}`;
  const r = spawnSync(gateShellPath(), ['-c', script], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
  return { code: r.status, made, stderr: r.stderr };
}

describe('the gate shell', () => {
  it('runs nothing without the pass, or with a wrong one', () => {
    const envs: Record<string, string>[] = [
      {},
      { AGENT_COLLAB_OPENCODE_GATE_TOKEN: 'tok' },
      { AGENT_COLLAB_OPENCODE_GATE_TOKEN: 'tok', AGENT_COLLAB_OPENCODE_GATE_PASS: 'guess' },
    ];
    for (const env of envs) {
      const r = run(env);
      expect(r.code).toBe(126);
      expect(existsSync(r.made)).toBe(false);
      expect(r.stderr).toContain('agent-collab-gate-refused');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs an approved call, which does not see the token', () => {
    const r = run({ AGENT_COLLAB_OPENCODE_GATE_TOKEN: 'tok', AGENT_COLLAB_OPENCODE_GATE_PASS: 'tok' });
    expect(r.code).toBe(0);
    expect(readFileSync(r.made, 'utf8')).toBe('none');
  });
});
