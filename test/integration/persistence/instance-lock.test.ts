import { spawn, type ChildProcess } from 'node:child_process';
import { access, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { acquireInstanceLock } from '../../../src/persistence/instance-lock.js';
import { tempDir } from '../../unit/persistence/tmp-dir.js';

const FIXTURE = fileURLToPath(new URL('./hold-instance-lock.fixture.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Starts the fixture and resolves once it holds the lock. */
function holdInChild(
  workdir: string,
  then: 'hold' | 'release' = 'hold',
): Promise<{ child: ChildProcess; exited: Promise<unknown> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, workdir, then], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('locked\n')) resolve({ child, exited });
    });
    void exited.then(() => reject(new Error(`child exited before locking: ${err}`)));
  });
}

async function lockedMessage(workdir: string): Promise<string> {
  const err = await acquireInstanceLock(workdir).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UserError);
  expect((err as UserError).exitCode).toBe(2);
  return (err as UserError).message;
}

const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );

describe('acquireInstanceLock', () => {
  it('refuses a second holder in the same process, then works again after release', async () => {
    const workdir = path.join(await tempDir(), '.agent-collab');
    const release = await acquireInstanceLock(workdir);
    expect((await readFile(path.join(workdir, 'agent-collab.pid'), 'utf8')).trim()).toBe(String(process.pid));
    // Held by this very process (only the library API runs several in one): said as such, not as "another" pid.
    expect(await lockedMessage(workdir)).toBe(
      'a run is already under way in this repo in this process; wait for it to end (one run per repo at a time)',
    );
    await release();
    await release(); // idempotent
    expect(await exists(path.join(workdir, 'agent-collab.pid'))).toBe(false);
    expect(await exists(path.join(workdir, 'agent-collab.lock'))).toBe(false);
    const again = await acquireInstanceLock(workdir);
    await again();
  });

  it('refuses while a live child process holds it, naming the child', async () => {
    const workdir = await tempDir();
    const { child } = await holdInChild(workdir);
    expect(await lockedMessage(workdir)).toBe(
      `another agent-collab (pid ${child.pid}) is running here; wait for it to finish or stop it`,
    );
  });

  it('takes over at once from a holder that was SIGKILLed', async () => {
    const workdir = await tempDir();
    const { child, exited } = await holdInChild(workdir);
    child.kill('SIGKILL');
    await exited;
    // A lock that goes stale only after ten minutes: taking it over cannot have waited for that.
    const release = await acquireInstanceLock(workdir, { staleMs: 10 * 60_000 });
    expect((await readFile(path.join(workdir, 'agent-collab.pid'), 'utf8')).trim()).toBe(String(process.pid));
    await release();
  });

  it('does not keep a process alive after release', async () => {
    const workdir = await tempDir();
    const { child, exited } = await holdInChild(workdir, 'release');
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running'), 10_000))]);
    expect(code).toBe(0);
    expect(child.exitCode).toBe(0);
  });

  it('reports a compromised lock through onCompromised instead of crashing', async () => {
    const workdir = await tempDir();
    const warnings: string[] = [];
    const release = await acquireInstanceLock(workdir, { staleMs: 2000, onCompromised: (m) => warnings.push(m) });
    await rm(path.join(workdir, 'agent-collab.lock'), { recursive: true });
    const deadline = Date.now() + 5000;
    while (warnings.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^lost the lock on .+; another agent-collab may start here$/);
    expect(warnings[0]).not.toContain('\n');
    await release(); // still fine to call
  });
});
