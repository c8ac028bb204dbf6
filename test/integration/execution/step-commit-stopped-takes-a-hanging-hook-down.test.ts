// Stop must not wait on git: a pre-commit hook that never ends (or a gpg prompt) is killed with git when the step's
// signal aborts, git's index lock goes with it, and nothing is committed.
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, type Fixture } from './git-fixture.js';

let fx: Fixture;
afterEach(() => fx.cleanup());

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('a step commit stopped while a hook hangs', () => {
  it('ends with git and the hook killed, no index lock left and nothing committed', async () => {
    fx = fixture();
    const pidFile = path.join(fx.dir, '.git', 'hook.pid');
    fx.write('.git/hooks/pre-commit', `#!/bin/sh\nsleep 1000 &\necho $! > '${pidFile}'\nwait\n`);
    chmodSync(path.join(fx.dir, '.git', 'hooks', 'pre-commit'), 0o755);
    const base = await fx.ws.snapshot();
    fx.write('a.txt', 'step 1\n');

    const stop = new AbortController();
    const commit = fx.ws.commitStep({
      runId: 'run-1',
      step: 1,
      summary: 'A',
      baseTree: base,
      allowSecrets: false,
      signal: stop.signal,
    });
    await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '');
    const hookChild = Number(readFileSync(pidFile, 'utf8').trim());
    stop.abort();

    const r = await commit;
    expect(r.kind).toBe('failed');
    await until(() => !alive(hookChild));
    expect(existsSync(path.join(fx.dir, '.git', 'index.lock'))).toBe(false);
    expect(fx.git('log', '--format=%s').trim().split('\n')).toEqual(['initial']);
    expect(fx.status()).toEqual(['?? a.txt']);
  }, 30_000);

  it('does not start git at all when the signal is already aborted', async () => {
    fx = fixture();
    const base = await fx.ws.snapshot();
    fx.write('a.txt', 'step 1\n');
    const stop = new AbortController();
    stop.abort();
    const r = await fx.ws
      .commitStep({ runId: 'run-1', step: 1, summary: 'A', baseTree: base, allowSecrets: false, signal: stop.signal })
      .catch((err: Error) => err.message);
    expect(r).toMatch(/git was stopped/);
    expect(fx.git('log', '--format=%s').trim().split('\n')).toEqual(['initial']);
  });
});
