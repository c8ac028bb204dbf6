// The hook server: only requests with the session's token reach the gate; the socket is private and removed on
// close; a gate that throws is a deny; approvals are kept per role and used up once.
import { existsSync, statSync } from 'node:fs';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startCommandHookServer, type CommandHookServer } from '../../../src/adapters/command-hook/server.js';
import type { CommandGate } from '../../../src/engine/ports.js';

const open: CommandHookServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function server(gate: CommandGate): Promise<CommandHookServer> {
  const s = await startCommandHookServer({ gate, confirmTimeoutSeconds: 5, program: ['/bin/false'] });
  open.push(s);
  return s;
}

/** The token the server put in the role's hook command line. */
function tokenOf(s: CommandHookServer): string {
  return s.endpoint('planner').command.split(' ').at(-2)!;
}

function ask(socketPath: string, request: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath);
    let data = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${typeof request === 'string' ? request : JSON.stringify(request)}\n`));
    socket.on('data', (d: string) => (data += d));
    socket.on('error', reject);
    socket.on('close', () => resolve(data === '' ? null : JSON.parse(data)));
  });
}

const allowAll: CommandGate = () => Promise.resolve({ allow: true });

describe('command hook server', () => {
  it('answers a request with the right token from the gate; a wrong or missing token is refused without asking it', async () => {
    let asked = 0;
    const s = await server((c) => (asked++, Promise.resolve(c.command === 'ls' ? { allow: true } : { allow: false, reason: 'no' })));
    const base = { role: 'planner', command: 'ls', cwd: '/r', tool: 'Bash' };
    expect(await ask(s.socketPath, { ...base, token: tokenOf(s) })).toEqual({ allow: true });
    expect(await ask(s.socketPath, { ...base, command: 'rm x', token: tokenOf(s) })).toEqual({ allow: false, reason: 'no' });
    expect(asked).toBe(2);
    expect(await ask(s.socketPath, { ...base, token: `${tokenOf(s)}0` })).toEqual({ allow: false, reason: expect.stringMatching(/token/) });
    expect(await ask(s.socketPath, { ...base, token: '' })).toEqual({ allow: false, reason: expect.stringMatching(/token/) });
    expect(await ask(s.socketPath, { ...base, token: 'x'.repeat(64) })).toEqual({ allow: false, reason: expect.stringMatching(/token/) });
    expect(await ask(s.socketPath, 'not json')).toEqual({ allow: false, reason: expect.stringMatching(/could not read/) });
    expect(await ask(s.socketPath, { ...base, role: 'intruder', token: tokenOf(s) })).toEqual({ allow: false, reason: expect.stringMatching(/unknown role/) });
    expect(asked).toBe(2);
    expect(s.checkedCommands.map((c) => c.command)).toEqual(['ls', 'rm x']);
  });

  it('the socket is mode 0600 in a 0700 directory, within the unix path limit, and gone after close', async () => {
    const s = await server(allowAll);
    expect(statSync(s.socketPath).mode & 0o777).toBe(0o600);
    expect(statSync(s.socketPath.replace(/\/[^/]+$/, '')).mode & 0o777).toBe(0o700);
    expect(Buffer.byteLength(s.socketPath)).toBeLessThanOrEqual(107);
    await s.close();
    expect(existsSync(s.socketPath)).toBe(false);
    expect(existsSync(s.socketPath.replace(/\/[^/]+$/, ''))).toBe(false);
  });

  it('a directory whose path is too long for a socket is refused with a clear error', async () => {
    await expect(startCommandHookServer({ gate: allowAll, confirmTimeoutSeconds: 5, program: ['x'], dir: `/tmp/${'d'.repeat(120)}` })).rejects.toThrow(
      /short enough path/,
    );
  });

  it('a gate that throws is a deny', async () => {
    const s = await server(() => Promise.reject(new Error('policy exploded')));
    expect(await ask(s.socketPath, { role: 'planner', command: 'ls', cwd: '/', token: tokenOf(s) })).toEqual({
      allow: false,
      reason: expect.stringMatching(/policy exploded/),
    });
  });

  it('keeps approvals per role; each covers one run of the command', async () => {
    const s = await server((c) => Promise.resolve(c.command.startsWith('ok') ? { allow: true } : { allow: false, reason: 'no' }));
    for (const command of ['ok 1', 'ok 1', 'bad']) await ask(s.socketPath, { role: 'planner', command, cwd: '/', token: tokenOf(s) });
    const planner = s.endpoint('planner').approvals;
    expect(s.endpoint('reviewer').approvals.take('ok 1')).toBe(false);
    expect(planner.take('bad')).toBe(false);
    expect(planner.take('ok 1')).toBe(true);
    expect(planner.take('ok   1')).toBe(true);
    expect(planner.take('ok 1')).toBe(false);
  });

  it('hook command line: program, socket, role, token, deadline above confirm_timeout_seconds; CLI timeout above that', async () => {
    const s = await server(allowAll);
    const ep = s.endpoint('reviewer');
    const [prog, sock, role, token, deadline] = ep.command.split(' ');
    expect([prog, sock, role]).toEqual(['/bin/false', s.socketPath, 'reviewer']);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(Number(deadline)).toBeGreaterThan(5_000);
    expect(ep.timeoutSeconds * 1000).toBeGreaterThan(Number(deadline));
  });
});
