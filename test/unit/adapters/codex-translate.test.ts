import { describe, expect, it } from 'vitest';
import { finishCodex, newCodexState, translateCodexLine } from '../../../src/adapters/codex/translate.js';
import type { AgentEvent } from '../../../src/core/types.js';
import { replay } from './sample-lines.js';

function run(name: string): AgentEvent[] {
  const state = newCodexState();
  return [...replay(name, state, translateCodexLine), ...finishCodex(state)];
}

describe('codex exec --json translation (real transcripts)', () => {
  it('codex-tools: reasoning, messages, commands, file changes, usage, final answer = last message', () => {
    expect(run('codex-tools.exec.jsonl')).toEqual([
      { type: 'session', sessionId: '01a206ff-9f40-79f0-9a11-2f1d670121d6' },
      { type: 'reasoning', text: 'Planning the change.' },
      { type: 'text', text: "I'll create a file." },
      {
        type: 'command',
        id: 'item_2',
        command: `/bin/bash -lc "printf 'a\\\\nb\\\\n' > notes.txt && cat notes.txt"`,
        status: 'started',
      },
      {
        type: 'command',
        id: 'item_2',
        command: `/bin/bash -lc "printf 'a\\\\nb\\\\n' > notes.txt && cat notes.txt"`,
        status: 'completed',
        exitCode: 0,
        output: 'a\nb\n',
      },
      { type: 'command', id: 'item_3', command: "/bin/bash -lc 'ls /nonexistent-dir'", status: 'started' },
      {
        type: 'command',
        id: 'item_3',
        command: "/bin/bash -lc 'ls /nonexistent-dir'",
        status: 'failed',
        exitCode: 2,
        output: "ls: cannot access '/nonexistent-dir': No such file or directory\n",
      },
      { type: 'file_change', path: '/home/dev/project/added.txt', kind: 'add' },
      { type: 'file_change', path: '/home/dev/project/notes.txt', kind: 'update' },
      { type: 'text', text: 'Final answer: done.' },
      { type: 'usage', inputTokens: 60, outputTokens: 30, cachedTokens: 0 },
      { type: 'done', sessionId: '01a206ff-9f40-79f0-9a11-2f1d670121d6', text: 'Final answer: done.' },
    ]);
  });

  it('codex-readonly: a single message is the answer', () => {
    expect(run('codex-readonly.exec.jsonl')).toEqual([
      { type: 'session', sessionId: '01a206ff-a484-7c31-8b44-6390e1afd548' },
      { type: 'text', text: 'Read-only run done.' },
      { type: 'usage', inputTokens: 30, outputTokens: 15, cachedTokens: 0 },
      { type: 'done', sessionId: '01a206ff-a484-7c31-8b44-6390e1afd548', text: 'Read-only run done.' },
    ]);
  });

  it('codex-unknown-model: a non-fatal error item is a warning, the turn still completes', () => {
    const events = run('codex-unknown-model.exec.jsonl');
    expect(events).toEqual([
      { type: 'session', sessionId: '01a206ff-a63f-7c70-8e4b-091a72bb812f' },
      {
        type: 'tool_result',
        id: 'item_0',
        output: expect.stringMatching(/^codex warning: Model metadata for `gpt-5.2-codex` not found/),
        isError: true,
      },
      { type: 'text', text: 'Plain answer.' },
      { type: 'usage', inputTokens: 10, outputTokens: 5, cachedTokens: 0 },
      { type: 'done', sessionId: '01a206ff-a63f-7c70-8e4b-091a72bb812f', text: 'Plain answer.' },
    ]);
    expect(events.some((e) => e.type === 'error')).toBe(false);
  });

  it('codex-api-error: HTTP 400 → one agent_error from turn.failed, no done', () => {
    const body = '{"error":{"message":"mock invalid request","type":"invalid_request_error","code":null}}';
    expect(run('codex-api-error.exec.jsonl')).toEqual([
      { type: 'session', sessionId: '01a206ff-a22b-7400-ac57-041c7c217907' },
      { type: 'error', kind: 'agent_error', message: body },
    ]);
  });

  it('codex-stream-error: a disconnected stream is infra', () => {
    expect(run('codex-stream-error.exec.jsonl')).toEqual([
      { type: 'session', sessionId: '01a206ff-a35e-79a1-9c33-9c03e7070a60' },
      { type: 'error', kind: 'infra', message: 'stream disconnected before completion: mock stream failure' },
    ]);
  });
});

describe('codex translation edge cases', () => {
  it('an error line then the end of output (no turn.failed) still reports the error', () => {
    const state = newCodexState();
    expect(
      translateCodexLine({ type: 'error', message: 'unexpected status 401 Unauthorized: bad key' }, state),
    ).toEqual([]);
    expect(finishCodex(state)).toEqual([
      { type: 'error', kind: 'auth', message: 'unexpected status 401 Unauthorized: bad key' },
    ]);
    expect(finishCodex(state)).toEqual([]);
  });

  it('an error line followed by a completed turn (a retry that worked) is dropped', () => {
    const state = newCodexState();
    translateCodexLine({ type: 'error', message: 'Reconnecting... 1/5' }, state);
    translateCodexLine({ type: 'item.completed', item: { id: 'i', type: 'agent_message', text: 'ok' } }, state);
    const end = translateCodexLine({ type: 'turn.completed', usage: {} }, state);
    expect(end.at(-1)).toEqual({ type: 'done', sessionId: null, text: 'ok' });
    expect(finishCodex(state)).toEqual([]);
  });

  it('a usage limit keeps its reset time', () => {
    const state = newCodexState();
    const now = new Date('2026-01-01T10:00:00Z');
    const message = "You've hit your usage limit. Try again in 2 hours 30 minutes.";
    expect(translateCodexLine({ type: 'turn.failed', error: { message } }, state, now)).toEqual([
      { type: 'error', kind: 'usage_limit', message, resetAt: '2026-01-01T12:30:00.000Z' },
    ]);
  });

  it('a completed turn without any message is an agent_error, not an empty answer', () => {
    const state = newCodexState();
    expect(translateCodexLine({ type: 'turn.completed', usage: { input_tokens: 1, output_tokens: 0 } }, state)).toEqual(
      [
        { type: 'usage', inputTokens: 1, outputTokens: 0, cachedTokens: 0 },
        { type: 'error', kind: 'agent_error', message: 'codex completed its turn without a message' },
      ],
    );
  });

  it('large command output is truncated in the event', () => {
    const state = newCodexState();
    const item = {
      id: 'c',
      type: 'command_execution',
      command: 'yes',
      aggregated_output: 'y\n'.repeat(50_000),
      exit_code: 0,
      status: 'completed',
    };
    const [ev] = translateCodexLine({ type: 'item.completed', item }, state);
    expect(ev?.type === 'command' && ev.output !== undefined && Buffer.byteLength(ev.output) <= 8 * 1024).toBe(true);
  });

  it('ignores lines it does not know', () => {
    expect(translateCodexLine({ type: 'turn.started' }, newCodexState())).toEqual([]);
    expect(
      translateCodexLine({ type: 'item.completed', item: { type: 'todo_list', items: [] } }, newCodexState()),
    ).toEqual([]);
    expect(translateCodexLine({ type: 'something.new' }, newCodexState())).toEqual([]);
  });
});
