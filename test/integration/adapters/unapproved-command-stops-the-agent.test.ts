// Defence in depth: with a hook, a shell command the CLI reports as run must have been approved through the hook.
// One that was not (the hook did not run) stops the CLI and fails the round with a clear message.
import { realpath } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createClaudeAgent } from '../../../src/adapters/claude/claude-agent.js';
import { createCodexAgent } from '../../../src/adapters/codex/codex-agent.js';
import { CommandApprovals } from '../../../src/adapters/command-hook/approvals.js';
import type { HookEndpoint } from '../../../src/adapters/command-hook/endpoint.js';
import type { AgentTurn } from '../../../src/core/types.js';
import { tempDir } from '../../unit/persistence/tmp-dir.js';
import { argvOf, hookEnvOf, writeFakeCli, type FakeCliBehaviour } from './fake-cli.js';
import { collect } from '../../helpers/agent-events.js';

function turn(cwd: string, access: AgentTurn['access'] = 'workspace-write'): AgentTurn {
  return { prompt: 'Do it', cwd, access, meta: { role: 'planner', kind: 'execute_step', iteration: 0, step: 1 } };
}

async function run(
  kind: 'codex' | 'claude',
  b: FakeCliBehaviour,
  approved: string[],
  access: AgentTurn['access'] = 'workspace-write',
) {
  const dir = await realpath(await tempDir());
  const binary = await writeFakeCli(dir, kind, b);
  const approvals = new CommandApprovals();
  for (const c of approved) approvals.record(c);
  let launches = 0;
  const hook: HookEndpoint = {
    role: 'planner',
    timeoutSeconds: 60,
    approvals,
    launch: () => (
      launches++,
      Promise.resolve({
        command: 'hook-cmd',
        env: { AGENT_COLLAB_HOOK_TOKEN: 'tok-1', AGENT_COLLAB_HOOK_REPLY_KEY: 'key-1' },
        timeoutSeconds: 60,
      })
    ),
  };
  const create = kind === 'codex' ? createCodexAgent : createClaudeAgent;
  const agent = create({
    name: kind,
    binary,
    debug: () => undefined,
    debugSource: `planner/${kind}`,
    hook,
    idleTimeoutMs: 20_000,
  });
  const events = await collect(agent.start(turn(dir, access)));
  await agent.stop(); // a stand-in that answered may still be exiting (writing into the temp dir): wait for it
  return { events, argv: (await argvOf(binary)).argv, hookEnv: await hookEnvOf(binary), launches };
}

describe('a command that ran without the hook approving it', () => {
  it('codex: approved (as the hook saw it, unquoted) → the run completes; the hook flags were passed', async () => {
    const { events, argv, hookEnv } = await run('codex', { transcript: 'codex-hook-trust.exec.jsonl' }, [
      'chmod -R 777 d && echo done > f.txt',
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'done', text: 'ok' });
    expect(events.some((e) => e.type === 'error')).toBe(false);
    expect(argv).toContain('--dangerously-bypass-hook-trust');
    expect(argv.find((a) => a.startsWith('hooks.PreToolUse='))).toContain('hook-cmd');
    expect(hookEnv).toEqual({ token: 'tok-1', replyKey: 'key-1' }); // the hook's variables ride in the CLI's environment
    expect(argv.join(' ')).not.toMatch(/tok-1|key-1/);
  });

  it('codex: not approved → the CLI is stopped at once (it would hang) and the round fails naming the command', async () => {
    // The stand-in hangs: only the stop for the unapproved command can end it with this error (not the idle timeout).
    const { events } = await run('codex', { transcript: 'codex-hook-trust.exec.jsonl', hang: true }, []);
    expect(events.some((e) => e.type === 'done')).toBe(false);
    expect(events.at(-2)).toMatchObject({ type: 'command', status: 'started' });
    expect(events.at(-1)).toEqual({
      type: 'error',
      kind: 'agent_error',
      message: expect.stringMatching(
        /^codex ran a shell command that agent-collab's command hook had not approved, so agent-collab stopped it: chmod -R 777 d && echo done > f\.txt\. The hook did not run/,
      ),
    });
  });

  it('codex: an approval for a different command does not count', async () => {
    const { events } = await run('codex', { transcript: 'codex-hook-trust.exec.jsonl' }, ['chmod -R 777 d']);
    expect(events.at(-1)).toMatchObject({ type: 'error', kind: 'agent_error' });
  });

  it('claude: both Bash calls approved → done; a call that failed with an exit code counts as run', async () => {
    const ok = await run('claude', { transcript: 'claude-tools.stream.jsonl' }, [
      'ls && cat notes.md',
      'ls /nonexistent-dir',
    ]);
    expect(ok.events.at(-1)).toMatchObject({ type: 'done' });
    const second = await run('claude', { transcript: 'claude-tools.stream.jsonl' }, ['ls && cat notes.md']);
    expect(second.events.at(-1)).toEqual({
      type: 'error',
      kind: 'agent_error',
      message: expect.stringContaining('stopped it: ls /nonexistent-dir'),
    });
    expect(second.argv[second.argv.indexOf('--settings') + 1]).toContain('hook-cmd');
    expect(second.hookEnv).toEqual({ token: 'tok-1', replyKey: 'key-1' });
    expect(second.argv.join(' ')).not.toMatch(/tok-1|key-1/);
  });

  it('claude read-only turn: no hook is passed (Bash is not among its tools), yet a command that ran anyway stops the CLI and fails the round', async () => {
    const r = await run('claude', { transcript: 'claude-tools.stream.jsonl' }, [], 'read-only');
    expect(r.argv).not.toContain('--settings');
    expect(r.argv.slice(r.argv.indexOf('--tools'))).toEqual(['--tools', 'Read,Grep,Glob']);
    expect(r.launches).toBe(0);
    expect(r.hookEnv).toEqual({ token: null, replyKey: null });
    expect(r.events.some((e) => e.type === 'done')).toBe(false);
    expect(r.events.at(-1)).toEqual({
      type: 'error',
      kind: 'agent_error',
      message: expect.stringMatching(
        /^claude ran a shell command that agent-collab's command hook had not approved, so agent-collab stopped it: ls && cat notes\.md\./,
      ),
    });
  });

  it('a hook whose launch fails: the round fails with its reason and the CLI is never started', async () => {
    const dir = await realpath(await tempDir());
    const binary = await writeFakeCli(dir, 'codex', { transcript: 'codex-hook-trust.exec.jsonl' });
    const hook: HookEndpoint = {
      role: 'planner',
      timeoutSeconds: 60,
      approvals: new CommandApprovals(),
      launch: () => Promise.reject(new Error('no hook client can run here')),
    };
    const agent = createCodexAgent({
      name: 'codex',
      binary,
      debug: () => undefined,
      debugSource: 'planner/codex',
      hook,
    });
    const events = await collect(agent.start(turn(dir)));
    expect(events).toEqual([{ type: 'error', kind: 'agent_error', message: 'no hook client can run here' }]);
    await expect(argvOf(binary)).rejects.toThrow(/ENOENT/);
  });

  it('claude: a denied call (no exit code) is not a command that ran', async () => {
    const denied = [
      '{"type":"system","subtype":"init","session_id":"s"}',
      '{"type":"assistant","message":{"model":"m","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"chmod -R 777 d"}}]}}',
      '{"type":"user","message":{"content":[{"type":"tool_result","content":"agent-collab: blocked","is_error":true,"tool_use_id":"t1"}]}}',
      '{"type":"result","subtype":"success","is_error":false,"result":"fine","session_id":"s"}',
    ];
    const { events } = await run('claude', { stdout: denied }, []);
    expect(events.at(-1)).toEqual({ type: 'done', sessionId: 's', text: 'fine' });
  });
});
