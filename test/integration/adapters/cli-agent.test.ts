import { realpath } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClaudeAgent } from '../../../src/adapters/claude/claude-agent.js';
import { createCodexAgent } from '../../../src/adapters/codex/codex-agent.js';
import type { Agent, AgentEvent, AgentTurn } from '../../../src/core/types.js';
import { tempDir } from '../../unit/persistence/tmp-dir.js';
import { argvOf, writeFakeCli, type FakeCliBehaviour } from './fake-cli.js';
import { collect } from '../../helpers/agent-events.js';

function turn(cwd: string, access: AgentTurn['access'] = 'read-only'): AgentTurn {
  return { prompt: 'Do it', cwd, access, meta: { role: 'planner', kind: 'write_plan', iteration: 0, step: null } };
}

// A turn ends at the CLI's answer; its stand-in may still be on its way out (writing its log in the test's temp dir).
// Each test waits for them before the dir is removed.
const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.stop()));
  vi.useRealTimers();
});

async function setup(kind: 'codex' | 'claude', b: FakeCliBehaviour, timeouts: { idleTimeoutMs?: number } = {}) {
  const dir = await realpath(await tempDir());
  const binary = await writeFakeCli(dir, kind, b);
  const debug: [string, string][] = [];
  const create = kind === 'codex' ? createCodexAgent : createClaudeAgent;
  const agent: Agent = create({
    name: kind,
    binary,
    debug: (s, l) => debug.push([s, l]),
    debugSource: `planner/${kind}`,
    ...timeouts,
  });
  agents.push(agent);
  return { dir, binary, agent, debug };
}

describe('CLI agents over a stand-in binary', () => {
  it('codex: replays a whole run; done comes last, after usage; every raw line reaches the debug sink', async () => {
    const { dir, binary, agent, debug } = await setup('codex', {
      transcript: 'codex-tools.exec.jsonl',
      stderr: 'Reading additional input from stdin...\n',
    });
    const events = await collect(agent.start(turn(dir, 'workspace-write')));
    // stderr is its own pipe, so its line may still be on the way when the answer arrives: stop() waits for the
    // CLI's exit, after which both pipes are drained.
    await agent.stop();
    expect(events[0]).toEqual({ type: 'session', sessionId: '01a206ff-9f40-79f0-9a11-2f1d670121d6' });
    expect(events.slice(-2).map((e) => e.type)).toEqual(['usage', 'done']);
    expect(events.at(-1)).toEqual({
      type: 'done',
      sessionId: '01a206ff-9f40-79f0-9a11-2f1d670121d6',
      text: 'Final answer: done.',
    });
    expect(await argvOf(binary)).toEqual({
      argv: ['exec', '--json', '-C', dir, '--sandbox', 'workspace-write', '-'],
      cwd: dir,
      stdin: 'Do it',
    });
    expect(debug.filter(([s]) => s === 'planner/codex')).toHaveLength(14);
    expect(debug).toContainEqual(['planner/codex stderr', 'Reading additional input from stdin...']);
  });

  it('codex resume passes the thread id, the prompt on stdin, and runs in the turn cwd', async () => {
    const { dir, binary, agent } = await setup('codex', { transcript: 'codex-readonly.exec.jsonl' });
    const events = await collect(agent.resume('th-7', turn(dir)));
    expect(events.at(-1)).toMatchObject({ type: 'done', text: 'Read-only run done.' });
    expect(await argvOf(binary)).toEqual({
      argv: ['exec', 'resume', '--json', '-c', 'sandbox_mode="read-only"', 'th-7', '-'],
      cwd: dir,
      stdin: 'Do it',
    });
  });

  it('codex: a prompt over its 1 MiB limit fails at once with one line, the CLI never started', async () => {
    const { dir, binary, agent } = await setup('codex', { transcript: 'codex-readonly.exec.jsonl' });
    const events = await collect(agent.start({ ...turn(dir), prompt: 'x'.repeat(1_048_577) }));
    expect(events).toEqual([
      {
        type: 'error',
        kind: 'agent_error',
        message:
          'the prompt for codex is 1048577 characters, over the 1048576 it accepts: shorten the goal or the plan (or let another CLI take this role)',
      },
    ]);
    await expect(argvOf(binary)).rejects.toThrow();
  });

  it('codex API error with exit 1: the translated error only, no extra exit error and no done', async () => {
    const { dir, agent } = await setup('codex', { transcript: 'codex-api-error.exec.jsonl', exitCode: 1 });
    const events = await collect(agent.start(turn(dir)));
    expect(events.map((e) => e.type)).toEqual(['session', 'error']);
    expect(events[1]).toMatchObject({ kind: 'agent_error' });
  });

  it('claude: a resumed unknown session → session_lost', async () => {
    const line = JSON.stringify({
      type: 'result',
      subtype: 'error_during_execution',
      is_error: true,
      errors: ['No conversation found with session ID: x'],
    });
    const { dir, binary, agent } = await setup('claude', { stdout: [line], exitCode: 1 });
    expect(await collect(agent.resume('x', turn(dir)))).toEqual([
      { type: 'error', kind: 'session_lost', message: 'No conversation found with session ID: x' },
    ]);
    const seen = await argvOf(binary);
    expect(seen.stdin).toBe('Do it');
    expect(seen.argv.slice(0, 6)).toEqual(['-p', '--output-format', 'stream-json', '--verbose', '--resume', 'x']);
  });

  it('codex: resuming an unknown thread (no rollout found, exit 1, no JSON) → session_lost; a new run with that stderr is not', async () => {
    const stderr =
      'Error: thread/resume: thread/resume failed: no rollout found for thread id 123e4567-e89b-42d3-a456-426614174000 (code -32600)\n';
    const { dir, agent } = await setup('codex', { stderr, exitCode: 1 });
    expect(await collect(agent.resume('123e4567-e89b-42d3-a456-426614174000', turn(dir)))).toEqual([
      { type: 'error', kind: 'session_lost', message: `codex exited with code 1: ${stderr.trim()}` },
    ]);
    expect(await collect(agent.start(turn(dir)))).toMatchObject([{ type: 'error', kind: 'agent_error' }]);
  });

  it('claude: a full run ends with done carrying the result text', async () => {
    const { dir, agent } = await setup('claude', { transcript: 'claude-tools.stream.jsonl' });
    const events = await collect(agent.start(turn(dir, 'workspace-write')));
    expect(events.at(-1)).toEqual({
      type: 'done',
      sessionId: 'a33101ff-c10f-4e5e-9240-67a2f1525a2c',
      text: 'Final answer: notes.md created and edited.',
    });
  });

  it('non-zero exit without any JSON → an error naming the exit code, with stderr, classified', async () => {
    const { dir, agent } = await setup('claude', {
      stderr: 'Error: Invalid API key · Please run /login\n',
      exitCode: 1,
    });
    expect(await collect(agent.start(turn(dir)))).toEqual([
      { type: 'error', kind: 'auth', message: 'claude exited with code 1: Error: Invalid API key · Please run /login' },
    ]);
    const other = await setup('codex', { stdout: ['not json'], stderr: 'something odd\n', exitCode: 2 });
    expect(await collect(other.agent.start(turn(other.dir)))).toEqual([
      { type: 'error', kind: 'agent_error', message: 'codex exited with code 2: something odd' },
    ]);
  });

  it('exit 0 without an answer is an error too', async () => {
    const { dir, agent } = await setup('codex', { stdout: ['{"type":"thread.started","thread_id":"t"}'] });
    expect(await collect(agent.start(turn(dir)))).toEqual([
      { type: 'session', sessionId: 't' },
      { type: 'error', kind: 'agent_error', message: 'codex ended without an answer' },
    ]);
  });

  it('a missing binary → one missing_binary error naming it and how to install it', async () => {
    const dir = await tempDir();
    const codex = createCodexAgent({
      name: 'c',
      binary: 'agent-collab-no-codex-here',
      debug: () => undefined,
      debugSource: 'x',
    });
    expect(await collect(codex.start(turn(dir)))).toEqual([
      {
        type: 'error',
        kind: 'missing_binary',
        message:
          'codex is not installed or not on PATH (looked for "agent-collab-no-codex-here"); install it with: npm install -g @openai/codex',
      },
    ]);
    const claude = createClaudeAgent({
      name: 'c',
      binary: 'agent-collab-no-claude-here',
      debug: () => undefined,
      debugSource: 'x',
    });
    const [ev] = await collect(claude.start(turn(dir)));
    expect(ev).toMatchObject({
      type: 'error',
      kind: 'missing_binary',
      message: expect.stringContaining('npm install -g @anthropic-ai/claude-code'),
    });
  });

  it('a CLI that goes quiet hits the idle timeout', async () => {
    // Fake clock (it still runs with real time): the idle timeout fires when the test moves the clock past it once
    // the CLI has spoken, never because a loaded machine was slow to start the CLI.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], shouldAdvanceTime: true });
    const idleTimeoutMs = 10 * 60_000;
    const { dir, agent } = await setup(
      'codex',
      { stdout: ['{"type":"thread.started","thread_id":"t"}'], hang: true },
      { idleTimeoutMs },
    );
    const events: AgentEvent[] = [];
    for await (const ev of agent.start(turn(dir))) {
      events.push(ev);
      if (ev.type === 'session') vi.advanceTimersByTime(idleTimeoutMs);
    }
    expect(events).toEqual([
      { type: 'session', sessionId: 't' },
      { type: 'error', kind: 'idle', message: 'codex produced no output for 10 min; stopped it' },
    ]);
  });

  it('stop() ends a hanging turn without an error or done; a turn stopped before it ran never starts', async () => {
    const { dir, binary, agent } = await setup('claude', {
      stdout: ['{"type":"system","subtype":"init","session_id":"s"}'],
      hang: true,
    });
    const seen: AgentEvent[] = [];
    const consuming = (async () => {
      for await (const ev of agent.start(turn(dir))) {
        seen.push(ev);
        if (ev.type === 'session') void agent.stop();
      }
    })();
    await consuming;
    expect(seen).toEqual([{ type: 'session', sessionId: 's' }]);
    await expect(argvOf(binary)).resolves.toBeTruthy();

    const { dir: dir2, binary: binary2, agent: agent2 } = await setup('claude', { hang: true });
    const pending = agent2.start(turn(dir2));
    await agent2.stop();
    expect(await collect(pending)).toEqual([]);
    await expect(argvOf(binary2)).rejects.toThrow();
  });
});
