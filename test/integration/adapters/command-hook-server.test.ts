// The hook server: it listens on loopback only, only requests with the session's token reach the gate, the token
// and the reply key travel in the environment (never on the command line), every answer to a request with the token
// starts with the reply key and no other answer reveals it, a gate that throws is a deny, approvals are kept per role
// and used up once; it starts only once a probe proved the bash client reaches it, else it says why and closes.
import net from 'node:net';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { readBashClient } from '../../../src/adapters/command-hook/bash-client.js';
import { HOOK_REPLY_KEY_ENV, HOOK_TOKEN_ENV, MAX_REQUEST_BYTES } from '../../../src/adapters/command-hook/protocol.js';
import {
  startCommandHookServer,
  type CommandHookServer,
  type CommandHookServerOptions,
} from '../../../src/adapters/command-hook/server.js';
import { UserError } from '../../../src/core/errors.js';
import type { CommandGate } from '../../../src/core/ports.js';
import { bashCall, decision } from './hook-helpers.js';

const open: CommandHookServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function server(gate: CommandGate, opts: Partial<CommandHookServerOptions> = {}): Promise<CommandHookServer> {
  const s = await startCommandHookServer({ gate, confirmTimeoutSeconds: 5, ...opts });
  open.push(s);
  return s;
}

async function until(cond: () => boolean, ms = 2_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The session's token and reply key, as its hooks get them. */
async function secretsOf(s: CommandHookServer): Promise<{ token: string; key: string }> {
  const { env } = await s.endpoint('planner').launch();
  return { token: env[HOOK_TOKEN_ENV]!, key: env[HOOK_REPLY_KEY_ENV]! };
}

/** Sends raw bytes to the port and returns everything it answers until it closes. */
function send(port: number, bytes: string | Buffer, host = '127.0.0.1'): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection({ host, port });
    let data = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (d: string) => (data += d));
    socket.on('error', reject);
    socket.on('close', () => resolve(data));
  });
}

function request(token: string, role: string, payload: string): string {
  return `AC-HOOK 1 ${token} ${role} ${Buffer.byteLength(payload)}\n${payload}`;
}

/** The decision of a one-line answer, which must start with the reply key `key`. */
function answered(line: string, key: string): string {
  expect(line.endsWith('\n')).toBe(true);
  expect(line.startsWith(`${key}:`)).toBe(true);
  const payload = line.slice(key.length + 1, -1);
  return payload === ''
    ? 'no opinion'
    : `${decision(payload).permissionDecision}: ${decision(payload).permissionDecisionReason}`;
}

/** The decision of a one-line answer to a request without the session's token: a bare deny that does not reveal `key`. */
function refused(line: string, key: string): string {
  expect(line.endsWith('\n')).toBe(true);
  expect(line).not.toContain(key);
  return `${decision(line.slice(0, -1)).permissionDecision}: ${decision(line.slice(0, -1)).permissionDecisionReason}`;
}

const allowAll: CommandGate = () => Promise.resolve({ allow: true });

describe('command hook server', () => {
  it('answers a request with the right token from the gate; a wrong or missing token, a bad header or an unknown role never reach it', async () => {
    let asked = 0;
    const s = await server(
      (c) => (asked++, Promise.resolve(c.command === 'ls' ? { allow: true } : { allow: false, reason: 'no' })),
    );
    const { token, key } = await secretsOf(s);
    expect(answered(await send(s.port, request(token, 'planner', bashCall('ls'))), key)).toBe(
      'allow: agent-collab: allowed by the command policy',
    );
    expect(answered(await send(s.port, request(token, 'planner', bashCall('rm x'))), key)).toBe(
      'deny: agent-collab: no',
    );
    expect(asked).toBe(2);
    for (const wrong of [`${token}0`, token.slice(1), 'x'.repeat(64), 'x', key]) {
      expect(refused(await send(s.port, request(wrong, 'planner', bashCall('ls'))), key)).toMatch(
        /^deny: agent-collab: .*token/,
      );
    }
    expect(refused(await send(s.port, `AC-HOOK 1  planner 2\n{}`), key)).toMatch(/^deny: .*could not be read/);
    expect(refused(await send(s.port, `not a header\n`), key)).toMatch(/^deny: .*could not be read/);
    expect(
      refused(await send(s.port, `{"token":"${token}","role":"planner","command":"ls","cwd":"/"}\n`), key),
    ).toMatch(/^deny: .*could not be read/);
    expect(refused(await send(s.port, `AC-HOOK 1 x planner ${MAX_REQUEST_BYTES + 1}\n{`), key)).toMatch(
      /^deny: .*too long/,
    );
    expect(answered(await send(s.port, request(token, 'intruder', bashCall('ls'))), key)).toMatch(
      /^deny: .*unknown role "intruder"/,
    );
    expect(asked).toBe(2);
    expect(s.checkedCommands.map((c) => c.command)).toEqual(['ls', 'rm x']);
  });

  it('a tool that is not a shell gets an empty line (no opinion); a payload that says it is too long is refused unread', async () => {
    const s = await server(allowAll);
    const { token, key } = await secretsOf(s);
    expect(
      answered(
        await send(
          s.port,
          request(token, 'planner', JSON.stringify({ tool_name: 'Read', tool_input: { file_path: '/x' } })),
        ),
        key,
      ),
    ).toBe('no opinion');
    expect(answered(await send(s.port, `AC-HOOK 1 ${token} planner ${MAX_REQUEST_BYTES + 1}\n{`), key)).toMatch(
      /^deny: .*too long/,
    );
    expect(s.checkedCommands).toEqual([]);
  });

  it('listens on 127.0.0.1 only', async () => {
    const s = await server(allowAll);
    const external = Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a?.family === 'IPv4' && !a.internal)?.address;
    if (external) await expect(send(s.port, 'x', external)).rejects.toThrow(/ECONNREFUSED/);
    await expect(send(s.port, 'x', '::1')).rejects.toThrow(/ECONNREFUSED|EADDRNOTAVAIL/);
  });

  it('the token and the reply key travel in the environment, not on the command line; they differ; every session gets its own', async () => {
    const a = await server(allowAll);
    const b = await server(allowAll);
    const launch = await a.endpoint('reviewer').launch();
    expect(Object.keys(launch.env).sort()).toEqual([HOOK_REPLY_KEY_ENV, HOOK_TOKEN_ENV]);
    const { token, key } = { token: launch.env[HOOK_TOKEN_ENV]!, key: launch.env[HOOK_REPLY_KEY_ENV]! };
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(key).not.toBe(token);
    expect(launch.command).not.toContain(token);
    expect(launch.command).not.toContain(key);
    expect(await secretsOf(a)).toEqual({ token, key }); // the same for every role of a session
    const other = await secretsOf(b);
    expect([other.token, other.key]).not.toContain(token);
    expect([other.token, other.key]).not.toContain(key);
  });

  it('every answer line it writes to a request with the token starts with the reply key: allow, deny, no opinion, a gate that throws', async () => {
    let lines = 0;
    const s = await server((c) =>
      c.command === 'boom'
        ? Promise.reject(new Error('policy exploded'))
        : Promise.resolve(c.command === 'ls' ? { allow: true } : { allow: false, reason: 'no' }),
    );
    const { token, key } = await secretsOf(s);
    for (const role of ['planner', 'reviewer']) {
      for (const payload of [bashCall('ls'), bashCall('rm x'), bashCall('boom'), '{"tool_name":"Read"}', 'not json']) {
        const raw = await send(s.port, request(token, role, payload));
        expect(raw.split('\n')).toEqual([expect.stringMatching(new RegExp(`^${key}:`)), '']);
        lines++;
      }
    }
    expect(lines).toBe(10);
  });

  it('a gate that throws is a deny', async () => {
    const s = await server(() => Promise.reject(new Error('policy exploded')));
    const { token, key } = await secretsOf(s);
    expect(answered(await send(s.port, request(token, 'planner', bashCall('ls'))), key)).toMatch(
      /^deny: agent-collab: .*policy exploded/,
    );
  });

  it('keeps approvals per role; each covers one run of the command', async () => {
    const s = await server((c) =>
      Promise.resolve(c.command.startsWith('ok') ? { allow: true } : { allow: false, reason: 'no' }),
    );
    const { token } = await secretsOf(s);
    for (const command of ['ok 1', 'ok 1', 'bad']) await send(s.port, request(token, 'planner', bashCall(command)));
    const planner = s.endpoint('planner').approvals;
    expect(s.endpoint('reviewer').approvals.take('ok 1')).toBe(false);
    expect(planner.take('bad')).toBe(false);
    expect(planner.take('ok 1')).toBe(true);
    expect(planner.take('ok   1')).toBe(true);
    expect(planner.take('ok 1')).toBe(false);
  });

  it('bash client command line: bash --norc -p -c <the script> with port, role and a deadline above confirm_timeout_seconds; the CLI timeout above that', async () => {
    const s = await server(allowAll);
    const launch = await s.endpoint('reviewer').launch();
    const script = readBashClient();
    expect(script).not.toMatch(/^\s*#/m);
    const quoted = `'${script.replace(/'/g, `'\\''`)}'`;
    expect(launch.command).toBe(`/bin/bash --norc -p -c ${quoted} agent-collab-hook ${s.port} reviewer 20`);
    expect(launch.timeoutSeconds).toBe(35);
    expect(s.endpoint('reviewer').timeoutSeconds).toBe(35);
  });

  it("starts after a probe (its own token and key) through its own port, says so in the debug log, and the probe's token is dead afterwards", async () => {
    const debug: string[] = [];
    const s = await server(allowAll, { debug: (source, line) => debug.push(`${source}: ${line}`) });
    const launch = await s.endpoint('planner').launch();
    expect(launch.command.startsWith('/bin/bash --norc -p -c ')).toBe(true);
    expect(debug).toContainEqual(
      expect.stringMatching(
        new RegExp(`^command-hook: hooks on 127\\.0\\.0\\.1:${s.port} use /bin/bash \\(its probe took \\d+ ms\\)$`),
      ),
    );
    expect(refused(await send(s.port, request('0'.repeat(64), 'probe', '{}')), (await secretsOf(s)).key)).toMatch(
      /^deny: .*token/,
    );
    expect(s.checkedCommands).toEqual([]);
  });

  it.for([
    ['no bash at the path', '/nonexistent/bash', /\/nonexistent\/bash does not exist/],
    ['a shell without /dev/tcp (dash)', '/bin/dash', /the probe through \/bin\/dash did not come back/],
  ] as const)(
    'with %s: does not start, says why in one line, and leaves no port open',
    async ([, bash, why], { expect }) => {
      const servers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
      const before = servers();
      const err = await server(allowAll, { bash }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(UserError);
      expect((err as Error).message).toMatch(why);
      expect((err as Error).message).toMatch(
        /^agent-collab's command hook cannot run: .*needs .* with \/dev\/tcp \(install bash\)$/,
      );
      expect((err as Error).message).not.toContain('\n');
      await until(() => servers() <= before); // libuv lets go of a closed handle on its next turn
    },
  );

  it('once closed, the port refuses connections', async () => {
    const s = await server(allowAll);
    await s.close();
    await expect(send(s.port, 'x')).rejects.toThrow(/ECONNREFUSED/);
  });
});
