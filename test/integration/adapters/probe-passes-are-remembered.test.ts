// A bash that passed the hook client's probe is remembered (path, inode, size, mtime, and the client script), so the
// next session hands out the bash client without probing; anything changed, unreadable or never passed is probed.
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readBashClient } from '../../../src/adapters/command-hook/hook-clients.js';
import { probeVerdicts } from '../../../src/adapters/command-hook/probe-verdicts.js';
import { startCommandHookServer, type CommandHookServer } from '../../../src/adapters/command-hook/server.js';
import { bashCall, decision, runHookCommand } from './hook-helpers.js';

const temps: string[] = [];
const open: CommandHookServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-collab-verdicts-'));
  temps.push(dir);
  return dir;
}

describe('remembered probe passes', () => {
  it('know a bash and script that passed, and nothing that changed since', () => {
    const dir = tempDir();
    const bash = path.join(dir, 'bash');
    copyFileSync('/bin/bash', bash);
    chmodSync(bash, 0o755);
    const file = path.join(dir, 'cache', 'verdicts.json');
    const v = probeVerdicts(file);
    expect(v.passed(bash, 'script v1')).toBe(false);
    v.rememberPass(bash, 'script v1');
    expect(probeVerdicts(file).passed(bash, 'script v1')).toBe(true);
    expect(v.passed(bash, 'script v2')).toBe(false);
    expect(v.passed('/bin/bash', 'script v1')).toBe(false);
    const later = new Date(Date.now() + 60_000);
    utimesSync(bash, later, later);
    expect(v.passed(bash, 'script v1')).toBe(false);
  });

  it('treat a damaged record as nothing remembered, and mend it on the next pass; without a file remember nothing', () => {
    const dir = tempDir();
    const file = path.join(dir, 'verdicts.json');
    writeFileSync(file, '{not json');
    const v = probeVerdicts(file);
    expect(v.passed('/bin/bash', 's')).toBe(false);
    v.rememberPass('/bin/bash', 's');
    expect(v.passed('/bin/bash', 's')).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveProperty(['/bin/bash']);
    const none = probeVerdicts(null);
    none.rememberPass('/bin/bash', 's');
    expect(none.passed('/bin/bash', 's')).toBe(false);
    const blocked = path.join(dir, 'a-file');
    writeFileSync(blocked, 'x');
    expect(() => probeVerdicts(path.join(blocked, 'v.json')).rememberPass('/bin/bash', 's')).not.toThrow();
  });

  it('spare a session the probe: the first is probed and remembered, the next hands out the bash client at once', async () => {
    const file = path.join(tempDir(), 'verdicts.json');
    const notes: string[] = [];
    for (let i = 0; i < 2; i++) {
      const s = await startCommandHookServer({
        gate: () => Promise.resolve({ allow: true }),
        confirmTimeoutSeconds: 5,
        verdicts: probeVerdicts(file),
        debug: (_source, line) => notes.push(line),
      });
      open.push(s);
      expect(await s.client).toBe('bash');
      const launch = await s.endpoint('planner').launch();
      const r = await runHookCommand(launch.command, bashCall('ls'), { env: launch.env });
      expect(decision(r.stdout).permissionDecision).toBe('allow');
    }
    expect(notes.filter((n) => n.includes('use the bash client'))).toEqual([
      expect.stringMatching(/its probe took \d+ ms/),
      expect.stringMatching(/it passed the probe before/),
    ]);
    expect(probeVerdicts(file).passed('/bin/bash', (readBashClient() as { script: string }).script)).toBe(true);
  });

  it('never remember a shell that failed the probe (dash has no /dev/tcp): it is probed every time', async () => {
    const file = path.join(tempDir(), 'verdicts.json');
    for (let i = 0; i < 2; i++) {
      const s = await startCommandHookServer({ gate: () => Promise.resolve({ allow: true }), confirmTimeoutSeconds: 5, bash: '/bin/dash', verdicts: probeVerdicts(file) });
      open.push(s);
      expect(await s.client).toBe('node');
    }
    expect(() => readFileSync(file)).toThrow(/ENOENT/);
  });
});
