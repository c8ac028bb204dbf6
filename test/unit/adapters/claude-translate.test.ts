import { describe, expect, it } from 'vitest';
import { newClaudeState, translateClaudeLine } from '../../../src/adapters/claude/translate.js';
import type { AgentEvent } from '../../../src/core/types.js';
import { replay } from './sample-lines.js';

function run(name: string): AgentEvent[] {
  return replay(name, newClaudeState(), translateClaudeLine);
}

const TOOLS_SESSION = 'a33101ff-c10f-4e5e-9240-67a2f1525a2c';

describe('claude stream-json translation (real transcripts)', () => {
  it('claude-tools: thinking, text, Write/Edit as file changes, parallel Bash as commands, failing Edit, result', () => {
    expect(run('claude-tools.stream.jsonl')).toEqual([
      { type: 'session', sessionId: TOOLS_SESSION },
      { type: 'reasoning', text: 'Let me plan the edit.' },
      { type: 'text', text: 'Writing a file.' },
      {
        type: 'tool_call',
        id: 'toolu_mock_2_0',
        name: 'Write',
        input: { file_path: '/home/dev/project/notes.md', content: '# Notes\nline one\n' },
      },
      {
        type: 'tool_result',
        id: 'toolu_mock_2_0',
        output:
          'File created successfully at: /home/dev/project/notes.md (file state is current in your context — no need to Read it back)',
        isError: false,
      },
      { type: 'file_change', path: '/home/dev/project/notes.md', kind: 'add' },
      {
        type: 'tool_call',
        id: 'toolu_mock_3_0',
        name: 'Edit',
        input: {
          replace_all: false,
          file_path: '/home/dev/project/notes.md',
          old_string: 'line one',
          new_string: 'line 1',
        },
      },
      {
        type: 'tool_result',
        id: 'toolu_mock_3_0',
        output:
          'The file /home/dev/project/notes.md has been updated successfully. (file state is current in your context — no need to Read it back)',
        isError: false,
      },
      { type: 'file_change', path: '/home/dev/project/notes.md', kind: 'update' },
      { type: 'text', text: 'Running two commands.' },
      { type: 'command', id: 'toolu_mock_4_0', command: 'ls && cat notes.md', status: 'started' },
      { type: 'command', id: 'toolu_mock_4_1', command: 'ls /nonexistent-dir', status: 'started' },
      {
        type: 'command',
        id: 'toolu_mock_4_0',
        command: 'ls && cat notes.md',
        status: 'completed',
        exitCode: 0,
        output: 'claude-tools.stream.jsonl\nnotes.md\n# Notes\nline 1',
      },
      {
        type: 'command',
        id: 'toolu_mock_4_1',
        command: 'ls /nonexistent-dir',
        status: 'failed',
        exitCode: 2,
        output: "Exit code 2\nls: cannot access '/nonexistent-dir': No such file or directory",
      },
      {
        type: 'tool_call',
        id: 'toolu_mock_5_0',
        name: 'Edit',
        input: {
          replace_all: false,
          file_path: '/home/dev/project/notes.md',
          old_string: 'NOT THERE',
          new_string: 'x',
        },
      },
      {
        type: 'tool_result',
        id: 'toolu_mock_5_0',
        output: '<tool_use_error>String to replace not found in file.\nString: NOT THERE</tool_use_error>',
        isError: true,
      },
      { type: 'text', text: 'Final answer: notes.md created and edited.' },
      { type: 'usage', inputTokens: 50, outputTokens: 25, cachedTokens: 0, costUsd: 0.000875, durationMs: 388 },
      { type: 'done', sessionId: TOOLS_SESSION, text: 'Final answer: notes.md created and edited.' },
    ]);
  });

  it('claude-partial: stream_event and status lines add nothing', () => {
    const session = 'a678ef82-4f96-49ea-9044-def85348e7f8';
    expect(run('claude-partial.stream.jsonl')).toEqual([
      { type: 'session', sessionId: session },
      { type: 'text', text: 'Printing a marker.' },
      { type: 'command', id: 'toolu_mock_8_0', command: 'echo partial-ok', status: 'started' },
      {
        type: 'command',
        id: 'toolu_mock_8_0',
        command: 'echo partial-ok',
        status: 'completed',
        exitCode: 0,
        output: 'partial-ok',
      },
      { type: 'text', text: 'Partial run done.' },
      { type: 'usage', inputTokens: 20, outputTokens: 10, cachedTokens: 0, costUsd: 0.00035, durationMs: 235 },
      { type: 'done', sessionId: session, text: 'Partial run done.' },
    ]);
  });

  it('claude-permission-denied: the denied Write is an error result, no file change, and the denial is reported before done', () => {
    const session = '88cc4e52-9fe8-431b-9f70-7f252af282b6';
    expect(run('claude-permission-denied.stream.jsonl')).toEqual([
      { type: 'session', sessionId: session },
      {
        type: 'tool_call',
        id: 'toolu_mock_11_0',
        name: 'Write',
        input: { file_path: '/home/dev/project/denied.txt', content: 'x\n' },
      },
      {
        type: 'tool_result',
        id: 'toolu_mock_11_0',
        output:
          "Claude requested permissions to write to /home/dev/project/denied.txt, but you haven't granted it yet.",
        isError: true,
      },
      { type: 'text', text: 'Could not write (denied).' },
      { type: 'usage', inputTokens: 20, outputTokens: 10, cachedTokens: 0, costUsd: 0.00035, durationMs: 205 },
      {
        type: 'tool_result',
        output: 'permission denied for 1 tool call(s): Write /home/dev/project/denied.txt',
        isError: true,
      },
      { type: 'done', sessionId: session, text: 'Could not write (denied).' },
    ]);
  });

  it('claude-api-error: HTTP 400 → agent_error from the result; the synthetic "API Error" message is not agent text', () => {
    expect(run('claude-api-error.stream.jsonl')).toEqual([
      { type: 'session', sessionId: '10573681-2a19-47d8-8707-3d10c616ef6d' },
      { type: 'usage', inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0, durationMs: 165 },
      { type: 'error', kind: 'agent_error', message: 'API Error: 400 mock invalid request' },
    ]);
  });

  it('claude-retry: the api_retry line is a retry notice with its wait, and the run succeeds', () => {
    const session = 'df47079c-9357-4eec-8a19-ce9b75d6bc59';
    expect(run('claude-retry.stream.jsonl')).toEqual([
      { type: 'session', sessionId: session },
      {
        type: 'retry',
        attempt: 1,
        maxAttempts: 10,
        status: 529,
        waitSeconds: 0.5379577746566655,
        kind: 'infra',
        message: 'API error 529 (overloaded); claude retries (1/10) in 0.5 s',
      },
      { type: 'text', text: 'RECOVERED after retry' },
      { type: 'usage', inputTokens: 10, outputTokens: 5, cachedTokens: 0, costUsd: 0.000175, durationMs: 710 },
      { type: 'done', sessionId: session, text: 'RECOVERED after retry' },
    ]);
  });

  it('claude-stream-error: a silently retried stream is a normal run', () => {
    const session = 'c6561d21-3eb3-4289-803f-1c6ae265b71b';
    expect(run('claude-stream-error.stream.jsonl')).toEqual([
      { type: 'session', sessionId: session },
      { type: 'text', text: 'after stream error' },
      { type: 'usage', inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0.000175, durationMs: 188 },
      { type: 'done', sessionId: session, text: 'after stream error' },
    ]);
  });
});

describe('claude translation edge cases', () => {
  it('resuming an unknown session (the single result line cli-facts documents) → session_lost', () => {
    const line = {
      type: 'result',
      subtype: 'error_during_execution',
      is_error: true,
      errors: ['No conversation found with session ID: 1234'],
    };
    expect(translateClaudeLine(line, newClaudeState())).toEqual([
      { type: 'error', kind: 'session_lost', message: 'No conversation found with session ID: 1234' },
    ]);
  });

  it('classifies errors by api_error_status', () => {
    const result = (status: number, text: string): AgentEvent[] =>
      translateClaudeLine(
        { type: 'result', subtype: 'success', is_error: true, api_error_status: status, result: text },
        newClaudeState(),
      );
    expect(result(401, 'API Error: 401 invalid x-api-key').map((e) => e.type === 'error' && e.kind)).toEqual(['auth']);
    expect(result(429, 'API Error: 429 rate limited').map((e) => e.type === 'error' && e.kind)).toEqual([
      'usage_limit',
    ]);
    expect(result(529, 'API Error: 529 overloaded').map((e) => e.type === 'error' && e.kind)).toEqual(['infra']);
  });

  it('counts cache reads and writes as input and reports cache reads as cached', () => {
    const line = {
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'ok',
      session_id: 's',
      total_cost_usd: 0.5,
      duration_ms: 10,
      usage: { input_tokens: 3, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 7 },
    };
    expect(translateClaudeLine(line, newClaudeState())[0]).toEqual({
      type: 'usage',
      inputTokens: 1103,
      outputTokens: 7,
      cachedTokens: 1000,
      costUsd: 0.5,
      durationMs: 10,
    });
  });

  it('tool_result content given as text blocks is joined', () => {
    const state = newClaudeState();
    translateClaudeLine(
      {
        type: 'assistant',
        message: { content: [{ type: 'tool_use', id: 't', name: 'Read', input: { file_path: '/a' } }] },
      },
      state,
    );
    const line = {
      type: 'user',
      message: {
        content: [
          {
            type: 'tool_result',
            tool_use_id: 't',
            content: [
              { type: 'text', text: 'one' },
              { type: 'text', text: 'two' },
            ],
          },
        ],
      },
    };
    expect(translateClaudeLine(line, state)).toEqual([
      { type: 'tool_result', id: 't', output: 'one\ntwo', isError: false },
    ]);
  });
});
