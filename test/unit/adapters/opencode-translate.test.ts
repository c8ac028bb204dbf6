// Transcripts recorded from the real opencode-ai 1.18.33 (`opencode run --format json`) against the scripted LLM
// server (test/e2e/llm-server.ts, Anthropic Messages route): test/fixtures/opencode/.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseJsonLine } from '../../../src/adapters/json-fields.js';
import {
  GATE_NOT_LOADED,
  finishOpencode,
  newOpencodeState,
  translateOpencodeLine,
} from '../../../src/adapters/opencode/translate.js';
import type { AgentEvent } from '../../../src/core/types.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'opencode');

function run(name: string): AgentEvent[] {
  const state = newOpencodeState();
  const lines = readFileSync(path.join(FIXTURES, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const events = lines.flatMap((l) => {
    const json = parseJsonLine(l);
    if (json === null) throw new Error(`${name}: not a JSON line`);
    return translateOpencodeLine(json, state);
  });
  return [...events, ...finishOpencode(state)];
}

describe('opencode run --format json translation (recorded transcripts)', () => {
  it('a text answer: session, text, usage, then the answer once the output ends', () => {
    expect(run('text-answer.jsonl')).toEqual([
      { type: 'session', sessionId: 'ses_de69f18f9ffeecBu03LJxQVyve' },
      { type: 'text', text: 'PLAN READY' },
      { type: 'usage', inputTokens: 7626, outputTokens: 29 },
      { type: 'done', sessionId: 'ses_de69f18f9ffeecBu03LJxQVyve', text: 'PLAN READY' },
    ]);
  });

  it('a bash call becomes a completed command with its exit code; the answer is the last message only', () => {
    const events = run('bash-then-answer.jsonl');
    expect(events).toContainEqual({
      type: 'command',
      id: 'toolu_62ccef2bf8e34d43a6af1',
      command: 'echo hi > made.txt',
      status: 'completed',
      exitCode: 0,
      output: '(no output)',
    });
    expect(events.filter((e) => e.type === 'usage')).toHaveLength(2);
    expect(events.at(-1)).toEqual({ type: 'done', sessionId: 'ses_de69f1eb2ffe31f0Btqboz7F1P', text: 'done' });
  });

  it('a bash call the command gate refused is a failed tool call, not a command that ran', () => {
    const events = run('bash-denied-by-plugin.jsonl');
    expect(events.some((e) => e.type === 'command')).toBe(false);
    expect(events).toContainEqual({
      type: 'tool_result',
      id: 'toolu_c9abcec3b89843a68cd01',
      output: 'agent-collab: denied by policy',
      isError: true,
    });
    expect(events.at(-1)).toMatchObject({ type: 'done', text: 'done' });
  });

  it('a call the gate shell refused (the plugin did not load) fails the turn and is no command that ran', () => {
    const events = run('bash-refused-by-gate-shell.jsonl');
    expect(events.some((e) => e.type === 'command')).toBe(false);
    expect(events).toContainEqual({ type: 'error', kind: 'agent_error', message: GATE_NOT_LOADED });
    expect(events.some((e) => e.type === 'done')).toBe(false);
  });

  it('a write tool call is a tool call, its result and a new file', () => {
    const events = run('write-then-answer.jsonl');
    expect(events).toContainEqual({ type: 'file_change', path: '/tmp/oc21-TYRJRb/repo1/w.txt', kind: 'add' });
    expect(events).toContainEqual({
      type: 'tool_result',
      id: 'toolu_bb9ecbc920be419bb0121',
      output: 'Wrote file successfully.',
      isError: false,
    });
    expect(events.at(-1)).toMatchObject({ type: 'done', text: 'done' });
  });

  it('an API error is the turn failing with its message and status, and no answer follows', () => {
    const events = run('api-error.jsonl');
    expect(events).toEqual([
      { type: 'session', sessionId: expect.stringMatching(/^ses_/) as string },
      {
        type: 'error',
        kind: 'agent_error',
        message: 'llm-server: no scripted anthropic reply left for model request #1',
      },
    ]);
  });

  it('output that ends with no text at all is an error, not an empty answer', () => {
    const state = newOpencodeState();
    translateOpencodeLine({ type: 'step_start', sessionID: 'ses_x', part: {} }, state);
    expect(finishOpencode(state)).toEqual([
      { type: 'error', kind: 'agent_error', message: 'opencode ended its turn without an answer' },
    ]);
  });
});
