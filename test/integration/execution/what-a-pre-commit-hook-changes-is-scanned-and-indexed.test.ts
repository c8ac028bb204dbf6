// A pre-commit hook may change what a step commit holds (a formatter that stages its work, or a script the agent
// edited). What it adds is scanned for secrets like the step's own changes, and what it changed is taken into the
// person's index, so the commit does not show as a staged reversal of the hook's work.
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, type Fixture } from './git-fixture.js';

let fx: Fixture;
afterEach(() => fx.cleanup());

function hook(body: string): void {
  const file = path.join(fx.dir, '.git', 'hooks', 'pre-commit');
  writeFileSync(file, `#!/bin/sh\nset -e\n${body}\n`);
  chmodSync(file, 0o755);
}

const commit = (baseTree: string) =>
  fx.ws.commitStep({ runId: 'run-1', step: 1, summary: 'A', baseTree, allowSecrets: false });

describe('a pre-commit hook that changes the commit', () => {
  it('a formatter’s staged work is committed and the person’s index follows it: nothing shows as changed', async () => {
    fx = fixture();
    hook('tr a-z A-Z < a.txt > a.tmp && mv a.tmp a.txt && git add a.txt');
    const base = await fx.ws.snapshot();
    fx.write('a.txt', 'shout\n');
    const r = await commit(base);
    expect(r.kind).toBe('committed');
    expect(fx.git('show', 'HEAD:a.txt')).toBe('SHOUT\n');
    expect(fx.status()).toEqual([]);
  });

  it('a secret a hook adds holds the step: nothing committed, the finding names the hook', async () => {
    fx = fixture();
    // Built in pieces: the repo's own secret scan must not find a literal token here.
    const token = ['ghp', '_', 'Zq8Xw2Lm4Np6Rt0Vb3Kd7Hs9Jf1Gc5Ya8Ue2Wi'].join('');
    hook(`echo "token = ${token}" >> a.txt && git add a.txt`);
    const base = await fx.ws.snapshot();
    fx.write('a.txt', 'plain\n');
    const r = await commit(base);
    expect(r.kind).toBe('secrets');
    if (r.kind === 'secrets') expect(r.findings.map((f) => f.file)).toContain('a.txt (changed by a commit hook)');
    expect(fx.git('log', '--format=%s').trim().split('\n')).toEqual(['initial']);
    expect(fx.git('ls-files', 'a.txt')).toBe('');
  });
});
