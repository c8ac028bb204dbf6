import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, type Fixture } from './git-fixture.js';

let fx: Fixture;
afterEach(() => fx.cleanup());

const GITHUB_TOKEN = `ghp_${'a1B2c3D4e5'.repeat(3)}Z9y8X7`;

async function stepAddingSecret(): Promise<string> {
  const base = await fx.ws.snapshot();
  fx.write('config.ts', `export const token = "${GITHUB_TOKEN}";\n`);
  fx.write('.env', 'DB_PASSWORD=hun' + 'ter2\n');
  fx.write('ok.ts', 'export const ok = true;\n');
  return base;
}

/** A pre-commit hook that prints `why` and rejects every commit. */
function rejectCommits(why: string): void {
  const hook = path.join(fx.dir, '.git', 'hooks', 'pre-commit');
  writeFileSync(hook, `#!/bin/sh\necho "${why}" >&2\nexit 1\n`);
  chmodSync(hook, 0o755);
}

describe('step workspace: secrets and commit failures', () => {
  it('does not commit (nor stage) a step whose diff holds secrets', async () => {
    fx = fixture();
    const head = fx.git('rev-parse', 'HEAD');
    const base = await stepAddingSecret();
    const result = await fx.ws.commitStep({
      runId: 'r',
      step: 1,
      summary: 'Config',
      baseTree: base,
      allowSecrets: false,
    });
    expect(result).toEqual({
      kind: 'secrets',
      findings: [
        { file: '.env', line: 0, kind: '.env file' },
        { file: '.env', line: 1, kind: 'hard-coded secret' }, // an unquoted password
        { file: 'config.ts', line: 1, kind: 'GitHub token' },
      ],
    });
    expect(fx.git('rev-parse', 'HEAD')).toBe(head);
    expect(fx.status()).toEqual(['?? .env', '?? config.ts', '?? ok.ts']);
  });

  it('commits the same step when the person allows the secrets', async () => {
    fx = fixture();
    const base = await stepAddingSecret();
    const result = await fx.ws.commitStep({
      runId: 'r',
      step: 1,
      summary: 'Config',
      baseTree: base,
      allowSecrets: true,
    });
    expect(result.kind).toBe('committed');
    expect(fx.commitFiles()).toEqual(['A\t.env', 'A\tconfig.ts', 'A\tok.ts']);
    expect(fx.status()).toEqual([]);
  });

  it('a pre-commit hook that rejects the commit: failed, with the tree and index as they were', async () => {
    fx = fixture();
    rejectCommits('lint failed: missing semicolon');
    fx.write('README.md', '# person edit\n');
    const base = await fx.ws.snapshot();
    fx.write('new.ts', 'export const x = 1\n');
    fx.write('README.md', '# person edit\nstep edit\n');
    const head = fx.git('rev-parse', 'HEAD');
    const statusBefore = fx.status();
    const indexBefore = fx.git('ls-files', '-s');

    const result = await fx.ws.commitStep({
      runId: 'r',
      step: 4,
      summary: 'Add x',
      baseTree: base,
      allowSecrets: false,
    });
    expect(result).toEqual({
      kind: 'failed',
      message: 'git commit of step 4 failed: lint failed: missing semicolon; fix it, then retry',
    });
    expect(fx.git('rev-parse', 'HEAD')).toBe(head);
    expect(fx.status()).toEqual(statusBefore);
    expect(fx.git('ls-files', '-s')).toBe(indexBefore);
    expect(fx.read('new.ts')).toBe('export const x = 1\n');
  });

  it('a rejected commit leaves the person’s staged new file staged with the person’s content', async () => {
    fx = fixture();
    rejectCommits('no');
    fx.write('shared-new.txt', 'the person’s version\n');
    fx.git('add', 'shared-new.txt');
    const base = await fx.ws.snapshot();
    fx.write('step-new.txt', 'only the step\n');
    const indexBefore = fx.git('ls-files', '-s');

    const result = await fx.ws.commitStep({
      runId: 'r',
      step: 2,
      summary: 'Both',
      baseTree: base,
      allowSecrets: false,
    });
    expect(result.kind).toBe('failed');
    // The step's own new file is no longer marked intent-to-add; the person's staged one keeps its staged blob.
    expect(fx.git('ls-files', '-s')).toBe(indexBefore);
    expect(fx.git('show', ':shared-new.txt')).toBe('the person’s version\n');
    expect(fx.status()).toEqual(['?? step-new.txt', 'A  shared-new.txt']);
  });

  it('no git identity: failed, and the message says how to set it', async () => {
    fx = fixture();
    const emptyConfig = path.join(fx.dir, '.git', 'empty-global-config');
    writeFileSync(emptyConfig, '');
    const saved = { global: process.env.GIT_CONFIG_GLOBAL, nosystem: process.env.GIT_CONFIG_NOSYSTEM };
    process.env.GIT_CONFIG_GLOBAL = emptyConfig;
    process.env.GIT_CONFIG_NOSYSTEM = '1';
    try {
      fx.git('config', '--unset', 'user.name');
      fx.git('config', '--unset', 'user.email');
      fx.git('config', 'user.useConfigOnly', 'true');
      const base = await fx.ws.snapshot();
      fx.write('new.ts', 'x\n');
      const result = await fx.ws.commitStep({ runId: 'r', step: 1, summary: 's', baseTree: base, allowSecrets: false });
      expect(result.kind).toBe('failed');
      const message = result.kind === 'failed' ? result.message : '';
      expect(message).not.toContain('\n');
      expect(message).toContain('set it with `git config user.name …` and `git config user.email …`');
      expect(fx.status()).toEqual(['?? new.ts']);
    } finally {
      for (const [key, value] of [
        ['GIT_CONFIG_GLOBAL', saved.global],
        ['GIT_CONFIG_NOSYSTEM', saved.nosystem],
      ] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });
});
