// The hook client answers in exactly the shape both CLIs read, and denies — exit code 0,
// never a crash — whenever they cannot get agent-collab's answer: no server, a refused port, a wrong or missing
// token, a missing reply key, an answer without the session's reply key (someone else holds the port), a server that
// closes, answers garbage or never answers, broken argv or stdin, a SIGTERM while waiting.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bashClientLine, readBashClient, shellLine } from '../../../src/adapters/command-hook/bash-client.js';
import { hookOutput, HOOK_REPLY_KEY_ENV, HOOK_TOKEN_ENV } from '../../../src/adapters/command-hook/protocol.js';
import { startCommandHookServer, type CommandHookServer } from '../../../src/adapters/command-hook/server.js';
import type { CommandCheck, CommandGate } from '../../../src/core/ports.js';
import { bashCall, decision, runHookCommand, type HookRunOptions } from './hook-helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

const policy: CommandGate = (c) =>
  Promise.resolve(
    c.command.startsWith('chmod') ? { allow: false, reason: 'blocked by the test policy (chmod)' } : { allow: true },
  );

/** A loopback server (on `port`, default any) that does `onConnection` with each connection instead of answering like agent-collab. */
async function rawServer(onConnection: (socket: net.Socket) => void, port = 0): Promise<number> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  cleanups.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  });
  return (server.address() as net.AddressInfo).port;
}

/** A port nothing listens on (it was free a moment ago). */
async function refusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** Reads one whole request (header and its payload) from `socket`, then calls `answer` with the header's token and all bytes. */
function onRequest(socket: net.Socket, answer: (token: string, request: Buffer) => void): void {
  let bytes = Buffer.alloc(0);
  socket.on('data', (d: Buffer) => {
    bytes = Buffer.concat([bytes, d]);
    const nl = bytes.indexOf(0x0a);
    const header = nl < 0 ? null : /^AC-HOOK 1 (\S+) \S+ (\d+)$/.exec(bytes.subarray(0, nl).toString());
    if (header && bytes.length >= nl + 1 + Number(header[2])) answer(header[1]!, bytes);
  });
}

/** The reply key hand-made servers sign with, and one the hook does not hold. */
const KEY = 'a1'.repeat(32);
const OTHER_KEY = 'b2'.repeat(32);
/** A valid allow line, as agent-collab's server would write it after the key. */
const ALLOW = hookOutput('allow', 'agent-collab: allowed by the command policy');

const script = readBashClient();

describe('the hook client', () => {
  async function server(gate: CommandGate): Promise<CommandHookServer> {
    const s = await startCommandHookServer({ gate, confirmTimeoutSeconds: 5 });
    cleanups.push(() => s.close());
    return s;
  }

  /** Runs the role's hook as the CLI would: its command line, its env, `stdin`. */
  async function runEndpoint(s: CommandHookServer, role: 'planner' | 'reviewer', stdin: string) {
    const launch = await s.endpoint(role).launch();
    return runHookCommand(launch.command, stdin, { env: launch.env });
  }

  /** The client's command line for a hand-made port / role / deadline. */
  function line(port: number, deadlineSeconds = 10, role = 'planner'): string {
    return bashClientLine('/bin/bash', script, { port, role, deadlineSeconds });
  }

  /** The client program started with `args` instead of what agent-collab writes. */
  function withArgs(args: string[]): string {
    return shellLine(['/bin/bash', '--norc', '-p', '-c', script, 'agent-collab-hook', ...args]);
  }

  /** The hook's environment: token `t` and reply key `key`. */
  const token = (t: string, key = KEY): HookRunOptions => ({ env: { [HOOK_TOKEN_ENV]: t, [HOOK_REPLY_KEY_ENV]: key } });

  function expectDeny(r: { code: number | null; stdout: string }, why: RegExp): void {
    expect(r.code).toBe(0);
    expect(decision(r.stdout)).toEqual({
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringMatching(why),
    });
    expect(decision(r.stdout).permissionDecisionReason).toMatch(/^agent-collab: .*denied/);
  }

  it('allow: prints exactly the PreToolUse allow object and exits 0; the server saw role, command and cwd', async () => {
    const checks: CommandCheck[] = [];
    const s = await server((c) => (checks.push(c), policy(c)));
    const r = await runEndpoint(s, 'planner', bashCall('git status', '/work/repo'));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"agent-collab: allowed by the command policy"}}\n',
    );
    expect(checks).toEqual([{ role: 'planner', command: 'git status', cwd: '/work/repo' }]);
  });

  it("deny: prints exactly the PreToolUse deny object with the gate's reason and exits 0", async () => {
    const s = await server(policy);
    const r = await runEndpoint(s, 'reviewer', bashCall('chmod -R 777 src'));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"agent-collab: blocked by the test policy (chmod)"}}\n',
    );
    expect(s.checkedCommands.map((c) => [c.role, c.command, c.verdict.allow])).toEqual([
      ['reviewer', 'chmod -R 777 src', false],
    ]);
  });

  it('a command with multi-byte characters, quotes, backslashes and newlines, 200 KB long, arrives byte for byte', async () => {
    const checks: CommandCheck[] = [];
    const s = await server((c) => (checks.push(c), Promise.resolve({ allow: true })));
    const command = `printf 'héllo ✓ "q" \\\\ $HOME\\n' && echo '${'ü€'.repeat(35_000)}'\nls -la\t`;
    const r = await runEndpoint(s, 'planner', bashCall(command));
    expect(decision(r.stdout).permissionDecision).toBe('allow');
    expect(checks.map((c) => c.command)).toEqual([command]);
  });

  it('the server is closed: denies, saying agent-collab cannot be reached', async () => {
    const s = await server(policy);
    const launch = await s.endpoint('planner').launch();
    await s.close();
    expectDeny(await runHookCommand(launch.command, bashCall('ls'), { env: launch.env }), /cannot reach agent-collab/);
  });

  it('a port nothing listens on: denies, saying agent-collab cannot be reached', async () => {
    expectDeny(
      await runHookCommand(line(await refusedPort()), bashCall('ls'), token('x')),
      /cannot reach agent-collab/,
    );
  });

  it("a wrong token: denies (the server's deny carries no key, so it is not taken either), and the gate is never asked", async () => {
    let asked = 0;
    const s = await server((c) => (asked++, policy(c)));
    const launch = await s.endpoint('planner').launch();
    const r = await runHookCommand(launch.command, bashCall('ls'), {
      env: { ...launch.env, [HOOK_TOKEN_ENV]: '0'.repeat(64) },
    });
    expectDeny(r, /did not come from this agent-collab session/);
    expect(asked).toBe(0);
    expect(s.checkedCommands).toEqual([]);
  });

  it('no token in the environment: denies without connecting', async () => {
    let connected = 0;
    const port = await rawServer(() => connected++);
    expectDeny(
      await runHookCommand(`env -u ${HOOK_TOKEN_ENV} ${line(port)}`, bashCall('ls')),
      new RegExp(HOOK_TOKEN_ENV),
    );
    expectDeny(await runHookCommand(line(port), bashCall('ls'), token('')), new RegExp(HOOK_TOKEN_ENV));
    expect(connected).toBe(0);
  });

  it.for([
    ['no reply key', null],
    ['an empty reply key', ''],
    ['a reply key that is too short', KEY.slice(1)],
    ['a reply key in upper case', KEY.toUpperCase()],
    ['a reply key with a space', `${KEY.slice(1)} `],
    ['the token as the reply key (the hook would send its own key)', 'c3'.repeat(32)],
  ] as const)('%s in the environment: denies naming the variable, without connecting', async ([, key], { expect }) => {
    let connected = 0;
    const port = await rawServer(() => connected++);
    const env = key === null ? `env -u ${HOOK_REPLY_KEY_ENV} ` : '';
    const r = await runHookCommand(`${env}${line(port)}`, bashCall('ls'), {
      env: { [HOOK_TOKEN_ENV]: 'c3'.repeat(32), ...(key === null ? {} : { [HOOK_REPLY_KEY_ENV]: key }) },
    });
    expect(r.code).toBe(0);
    expect(decision(r.stdout)).toEqual({
      permissionDecision: 'deny',
      permissionDecisionReason: `agent-collab: the command hook found no valid reply key in ${HOOK_REPLY_KEY_ENV}, so the command was denied`,
    });
    expect(connected).toBe(0);
  });

  it('an answer that starts with the reply key: prints the rest (an allow, or nothing for no opinion); the key itself was never sent', async () => {
    const requests: string[] = [];
    let payload = ALLOW;
    const port = await rawServer((socket) =>
      onRequest(socket, (_, request) => (requests.push(request.toString()), socket.end(`${KEY}:${payload}\n`))),
    );
    expect(await runHookCommand(line(port), bashCall('git status'), token('t0k'))).toMatchObject({
      code: 0,
      stdout: `${ALLOW}\n`,
    });
    payload = '';
    expect(await runHookCommand(line(port), bashCall('git status'), token('t0k'))).toMatchObject({
      code: 0,
      stdout: '',
    });
    expect(requests).toHaveLength(2);
    expect(requests[0]).toContain('AC-HOOK 1 t0k planner ');
    for (const request of requests) expect(request).not.toContain(KEY);
  });

  it.for([
    ['without a key', `${ALLOW}\n`],
    ['with a wrong key', `${OTHER_KEY}:${ALLOW}\n`],
    ['with the token it was sent in place of the key', `TOKEN:${ALLOW}\n`],
    ['with the key cut short', `${KEY.slice(0, 63)}:${ALLOW}\n`],
    ['with the key after something else', ` ${KEY}:${ALLOW}\n`],
    ['with the key but no colon', `${KEY}${ALLOW}\n`],
  ] as const)(
    'a server that answers a valid allow %s: denies, the answer did not come from this session',
    async ([, answer], { expect }) => {
      const port = await rawServer((socket) => onRequest(socket, (sent) => socket.end(answer.replace('TOKEN', sent))));
      const r = await runHookCommand(line(port), bashCall('rm -rf ~'), token('f'.repeat(64)));
      expect(r.code).toBe(0);
      expect(decision(r.stdout)).toEqual({
        permissionDecision: 'deny',
        permissionDecisionReason: `agent-collab: the answer on port ${port} did not come from this agent-collab session, so the command was denied`,
      });
    },
  );

  it('agent-collab gone and another program on its port, answering allow with the token it was sent: denies', async () => {
    const s = await server(policy);
    const launch = await s.endpoint('planner').launch();
    await s.close();
    let heard = 0;
    await rawServer((socket) => onRequest(socket, (sent) => (heard++, socket.end(`${sent}:${ALLOW}\n`))), s.port);
    const r = await runHookCommand(launch.command, bashCall('rm -rf ~'), { env: launch.env });
    expectDeny(r, /did not come from this agent-collab session/);
    expect(heard).toBe(1);
  });

  it.for([
    ['a ~/.bashrc that prints (a top-level bash -c with a socket on stdin would source it)', {}],
    ['BASH_ENV', { BASH_ENV: 'HOME/env.sh' }],
    [
      'exported functions named like built-ins',
      { 'BASH_FUNC_printf%%': '() { echo hijacked; }', 'BASH_FUNC_read%%': '() { return 0; }' },
    ],
    ['POSIXLY_CORRECT', { POSIXLY_CORRECT: '1' }],
  ] as const)("the user's shell setup cannot get in: %s", async ([, extra], { expect }) => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'ac-home-'));
    cleanups.push(() => rm(home, { recursive: true, force: true }));
    await writeFile(path.join(home, '.bashrc'), 'echo bashrc-ran\n');
    await writeFile(path.join(home, 'env.sh'), 'echo bash-env-ran\n');
    const s = await server(policy);
    const launch = await s.endpoint('planner').launch();
    const env: Record<string, string> = { ...launch.env, HOME: home };
    for (const [k, v] of Object.entries(extra)) env[k] = v.replace('HOME', home);
    const r = await runHookCommand(`env -u SHLVL ${launch.command}`, bashCall('chmod 777 x'), { env });
    expect(r.stdout).toBe(
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"agent-collab: blocked by the test policy (chmod)"}}\n',
    );
  });

  it('a server that closes without answering: denies', async () => {
    const port = await rawServer((socket) => socket.once('data', () => socket.end()));
    expectDeny(await runHookCommand(line(port), bashCall('ls'), token('x')), /ended without an answer/);
  });

  it.for([
    ['garbage', `${KEY}:hello\n`],
    ['the old JSON answer', `${KEY}:{"allow":true}\n`],
    ['an answer without its newline', `${KEY}:{"hookSpecificOutput":{"permissionDecision":"allow"}}`],
  ] as const)('a server that answers %s after the right key: denies', async ([, answer], { expect }) => {
    const port = await rawServer((socket) => socket.once('data', () => socket.end(answer)));
    const r = await runHookCommand(line(port), bashCall('ls'), token('x'));
    expect(r.code).toBe(0);
    expect(decision(r.stdout)).toEqual({
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringMatching(/could not read the answer|without an answer/),
    });
  });

  it('a server that never answers: denies by itself at its deadline, before the CLI would give up', async () => {
    const port = await rawServer(() => undefined); // accepts, answers nothing
    const r = await runHookCommand(line(port, 1), bashCall('ls'), token('x'));
    expectDeny(r, /got no answer within 1 s/);
  });

  it('a gate still waiting when the server closes: denies', async () => {
    const s = await server(() => new Promise(() => undefined));
    const pending = runEndpoint(s, 'planner', bashCall('git push'));
    while (s.pendingChecks === 0) await new Promise((r) => setTimeout(r, 20));
    await s.close();
    expectDeny(await pending, /without an answer/);
  });

  it('SIGTERM while waiting for the answer: denies and exits 0', async () => {
    let asked!: () => void;
    const askedP = new Promise<void>((r) => (asked = r));
    const port = await rawServer((socket) => socket.once('data', () => asked()));
    let pid = 0;
    const run = runHookCommand(line(port), bashCall('git push'), { ...token('x'), started: (p) => (pid = p) });
    await askedP;
    process.kill(pid, 'SIGTERM');
    expectDeny(await run, /stopped before agent-collab answered/);
  });

  it.for([
    ['no arguments', []],
    ['a port that is not a number', ['http', 'planner', '10']],
    ['no deadline', ['4000', 'planner']],
    ['a zero deadline', ['4000', 'planner', '0']],
    ['a role with a space', ['4000', 'plan ner', '10']],
  ])('started with %s: denies', async ([, args], { expect }) => {
    const r = await runHookCommand(withArgs(args as string[]), bashCall('ls'), token('x'));
    expect(r.code).toBe(0);
    expect(decision(r.stdout)).toEqual({
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringMatching(/without its port, role and deadline/),
    });
  });

  it.for([
    ['not JSON', 'rm -rf / {', /not JSON/],
    ['no tool_name', '{"tool_input":{"command":"ls"}}', /without a tool_name/],
    ['Bash without a command string', '{"tool_name":"Bash","tool_input":{"command":["ls"]}}', /no command string/],
    ['empty', '', /not JSON/],
  ] as const)('garbage on stdin (%s): denies', async ([, stdin, why], { expect }) => {
    let asked = 0;
    const s = await server((c) => (asked++, policy(c)));
    const r = await runEndpoint(s, 'planner', stdin);
    expect(r.code).toBe(0);
    expect(decision(r.stdout)).toEqual({
      permissionDecision: 'deny',
      permissionDecisionReason: expect.stringMatching(why),
    });
    expect(asked).toBe(0);
  });

  it('a tool that is not a shell: no decision (empty output, exit 0), the gate is not asked', async () => {
    let asked = 0;
    const s = await server((c) => (asked++, policy(c)));
    const r = await runEndpoint(
      s,
      'planner',
      JSON.stringify({ tool_name: 'Write', tool_input: { file_path: '/x', content: 'y' } }),
    );
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(asked).toBe(0);
  });

  it("codex exec_command reported as Bash, with codex's extra fields: checked like any Bash call", async () => {
    const s = await server(policy);
    const stdin = JSON.stringify({
      session_id: 't',
      turn_id: 'u',
      model: 'gpt-5.5',
      cwd: '/r',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'chmod 777 x' },
      tool_use_id: 'call_1',
    });
    const r = await runEndpoint(s, 'planner', stdin);
    expect(decision(r.stdout).permissionDecision).toBe('deny');
  });
});
