// With the real bubblewrap and socat: a Unix socket a daemon listens on outside the box (under /run, or an ssh
// control socket in $HOME/.ssh) answers outside but cannot be connected to from inside the box; the box still
// starts when a socket sits behind a dir it cannot search.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempRepo } from '../../helpers/repo.js';
import { runBoxed } from './helpers.js';

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.reverse()) c();
  cleanups = [];
});

/** A socat server on `sock` that answers every connection with "hello". */
async function listen(sock: string): Promise<ChildProcess> {
  const server = spawn('socat', [`UNIX-LISTEN:${sock},fork`, 'SYSTEM:echo hello'], { stdio: 'ignore' });
  cleanups.push(() => server.kill('SIGKILL'));
  for (let i = 0; i < 50 && !existsSync(sock); i++) await sleep(50);
  return server;
}

function connectOutside(sock: string): string {
  return spawnSync('socat', ['-u', `UNIX-CONNECT:${sock}`, '-'], { encoding: 'utf8', timeout: 5_000 }).stdout;
}

/** A temp dir under /run, where daemons keep their sockets (we run as root in CI; skipped when /run is not ours). */
function runDir(): string | null {
  try {
    const dir = mkdtempSync('/run/ac-sock-');
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  } catch {
    return null;
  }
}

describe('Unix sockets outside the box', () => {
  it('a socket under /run and one in $HOME/.ssh answer outside, and refuse a connection from inside the box', async (ctx) => {
    const run = runDir();
    if (run === null) return ctx.skip('cannot create a dir under /run');
    const repo = tempRepo();
    cleanups.push(repo.cleanup);
    mkdirSync(path.join(repo.dir, '.agent-collab'));
    const ssh = path.join(repo.home, '.ssh');
    mkdirSync(ssh);
    const daemon = path.join(run, 'daemon.sock');
    const control = path.join(ssh, 'cm-host.sock');
    await listen(daemon);
    await listen(control);
    expect(connectOutside(daemon)).toBe('hello\n');
    expect(connectOutside(control)).toBe('hello\n');

    const spec = { repo: repo.dir, workdir: '.agent-collab', home: repo.home, tmpDir: '/tmp' };
    for (const sock of [daemon, control]) {
      const r = runBoxed(spec, `socat -u UNIX-CONNECT:${sock} - && echo REACHED`);
      expect(r.output, sock).not.toContain('hello');
      expect(r.output, sock).not.toContain('REACHED');
      expect(r.code, sock).not.toBe(0);
    }
    // the box itself works
    expect(runBoxed(spec, 'echo ok > in-repo.txt && cat in-repo.txt')).toEqual({ code: 0, output: 'ok\n' });
  });

  it('a socket behind a dir the box cannot search needs no mask: the box still starts', async (ctx) => {
    const run = runDir();
    if (run === null) return ctx.skip('cannot create a dir under /run');
    const repo = tempRepo();
    cleanups.push(repo.cleanup);
    mkdirSync(path.join(repo.dir, '.agent-collab'));
    const closed = path.join(run, 'closed');
    mkdirSync(closed);
    await listen(path.join(closed, 'private.sock'));
    // owned by another user, searchable by nobody else (as /run/user/<uid> is)
    spawnSync('chown', ['12345', closed]);
    chmodSync(closed, 0o700);
    const spec = { repo: repo.dir, workdir: '.agent-collab', home: repo.home, tmpDir: '/tmp' };
    expect(runBoxed(spec, 'echo ok')).toEqual({ code: 0, output: 'ok\n' });
  });
});
