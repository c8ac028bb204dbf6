// The hook program answers in exactly the shape both CLIs read, and denies whenever it cannot get agent-collab's
// answer: no server, a wrong token, a server that never answers, unreadable input, broken argv.
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hookProgramArgv, shellLine } from '../../../src/adapters/command-hook/hook-program.js';
import { hookArgv } from '../../../src/adapters/command-hook/protocol.js';
import { startCommandHookServer, type CommandHookServer } from '../../../src/adapters/command-hook/server.js';
import type { CommandCheck, CommandGate } from '../../../src/engine/ports.js';
import { bashCall, decision, runHookCommand } from './hook-helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

async function server(gate: CommandGate): Promise<CommandHookServer> {
  const s = await startCommandHookServer({ gate, confirmTimeoutSeconds: 5 });
  cleanups.push(() => s.close());
  return s;
}

/** The hook's command line for a hand-made socket / token / deadline. */
function hookLine(socketPath: string, token: string, deadlineMs: number): string {
  return shellLine([...hookProgramArgv(), ...hookArgv({ socketPath, role: 'planner', token, deadlineMs })]);
}

const policy: CommandGate = (c) =>
  Promise.resolve(c.command.startsWith('chmod') ? { allow: false, reason: 'blocked by the test policy (chmod)' } : { allow: true });

describe('the hook program', () => {
  it('allow: prints exactly the PreToolUse allow object and exits 0; the server saw role, command and cwd', async () => {
    const checks: CommandCheck[] = [];
    const s = await server((c) => (checks.push(c), policy(c)));
    const r = await runHookCommand(s.endpoint('planner').command, bashCall('git status', '/work/repo'));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"agent-collab: allowed by the command policy"}}\n',
    );
    expect(checks).toEqual([{ role: 'planner', command: 'git status', cwd: '/work/repo' }]);
  });

  it('deny: prints exactly the PreToolUse deny object with the gate\'s reason and exits 0', async () => {
    const s = await server(policy);
    const r = await runHookCommand(s.endpoint('reviewer').command, bashCall('chmod -R 777 src'));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"agent-collab: blocked by the test policy (chmod)"}}\n',
    );
    expect(s.checkedCommands.map((c) => [c.role, c.command, c.verdict.allow])).toEqual([['reviewer', 'chmod -R 777 src', false]]);
  });

  it('no server at the socket path: denies, saying agent-collab cannot be reached', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ac-nohook-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const r = await runHookCommand(hookLine(path.join(dir, 'missing.sock'), 'x', 10_000), bashCall('ls'));
    expect(r.code).toBe(0);
    expect(decision(r.stdout)).toEqual({ permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/cannot reach agent-collab .*ENOENT.*denied/) });
  });

  it('a closed server: denies', async () => {
    const s = await server(policy);
    const line = s.endpoint('planner').command;
    await s.close();
    const r = await runHookCommand(line, bashCall('ls'));
    expect(decision(r.stdout).permissionDecision).toBe('deny');
    expect(decision(r.stdout).permissionDecisionReason).toMatch(/cannot reach agent-collab/);
  });

  it('a wrong token: denies, and the gate is never asked', async () => {
    let asked = 0;
    const s = await server((c) => (asked++, policy(c)));
    const r = await runHookCommand(hookLine(s.socketPath, 'not-the-token', 10_000), bashCall('ls'));
    expect(decision(r.stdout)).toEqual({ permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/token/) });
    expect(asked).toBe(0);
    expect(s.checkedCommands).toEqual([]);
  });

  it('a server that never answers: denies by itself at its deadline, before the CLI would give up', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'ac-mute-'));
    const sock = path.join(dir, 'mute.sock');
    const mute = net.createServer(() => undefined); // accepts, reads nothing, answers nothing
    await new Promise<void>((resolve) => mute.listen(sock, resolve));
    cleanups.push(async () => {
      mute.close();
      await rm(dir, { recursive: true, force: true });
    });
    const r = await runHookCommand(hookLine(sock, 'x', 1_500), bashCall('ls'));
    expect(r.code).toBe(0);
    expect(decision(r.stdout)).toEqual({ permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/did not answer within 2 s/) });
    expect(r.ms).toBeGreaterThanOrEqual(1_500);
  });

  it('a gate still waiting when the server closes: denies', async () => {
    const s = await server(() => new Promise(() => undefined));
    const pending = runHookCommand(s.endpoint('planner').command, bashCall('git push'));
    while (s.pendingChecks === 0) await new Promise((r) => setTimeout(r, 20));
    await s.close();
    const r = await pending;
    expect(decision(r.stdout)).toEqual({ permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/without an answer/) });
  });

  it.for([
    ['not JSON', 'rm -rf / {', /not JSON/],
    ['no tool_name', '{"tool_input":{"command":"ls"}}', /without a tool_name/],
    ['Bash without a command string', '{"tool_name":"Bash","tool_input":{"command":["ls"]}}', /no command string/],
    ['empty', '', /not JSON/],
  ] as const)('garbage on stdin (%s): denies', async ([, stdin, why], { expect }) => {
    let asked = 0;
    const s = await server((c) => (asked++, policy(c)));
    const r = await runHookCommand(s.endpoint('planner').command, stdin);
    expect(r.code).toBe(0);
    expect(decision(r.stdout)).toEqual({ permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(why) });
    expect(asked).toBe(0);
  });

  it('started without its arguments: denies', async () => {
    const r = await runHookCommand(shellLine(hookProgramArgv()), bashCall('ls'));
    expect(r.code).toBe(0);
    expect(decision(r.stdout)).toEqual({ permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/without its socket/) });
  });

  it('a tool that is not a shell: no decision (empty output, exit 0), the gate is not asked', async () => {
    let asked = 0;
    const s = await server((c) => (asked++, policy(c)));
    const r = await runHookCommand(s.endpoint('planner').command, JSON.stringify({ tool_name: 'Write', tool_input: { file_path: '/x', content: 'y' } }));
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(asked).toBe(0);
  });

  it('codex exec_command reported as Bash, with codex\'s extra fields: checked like any Bash call', async () => {
    const s = await server(policy);
    const stdin = JSON.stringify({ session_id: 't', turn_id: 'u', model: 'gpt-5.5', cwd: '/r', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'chmod 777 x' }, tool_use_id: 'call_1' });
    const r = await runHookCommand(s.endpoint('planner').command, stdin);
    expect(decision(r.stdout).permissionDecision).toBe('deny');
  });
});
