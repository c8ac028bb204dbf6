// The gemini translator on transcripts recorded from the real @google/gemini-cli 0.61.0 (fixtures/README.md).
import { describe, expect, it } from 'vitest';
import {
  finishGemini,
  newGeminiState,
  translateGeminiLine,
  type GeminiTranslatorState,
} from '../../../src/adapters/gemini/translate.js';
import type { AgentEvent } from '../../../src/core/types.js';
import { replay } from './sample-lines.js';

function run(name: string): { events: AgentEvent[]; state: GeminiTranslatorState } {
  const state = newGeminiState();
  const events = replay(`gemini-${name}.stream.jsonl`, state, translateGeminiLine);
  return { events: [...events, ...finishGemini(state)], state };
}

describe('gemini stream-json translation', () => {
  it('a text answer: the session, one text event for the streamed deltas, usage, and done with the answer', () => {
    const { events } = run('text-answer');
    expect(events.map((e) => e.type)).toEqual(['session', 'text', 'usage', 'done']);
    expect(events[0]).toEqual({ type: 'session', sessionId: '576fc929-87aa-47f1-b092-aa194cca66a8' });
    expect(events[1]).toEqual({ type: 'text', text: 'fallback answer' });
    expect(events[2]).toMatchObject({ type: 'usage', inputTokens: 8238, outputTokens: 7, cachedTokens: 0 });
    expect(events[3]).toEqual({
      type: 'done',
      sessionId: '576fc929-87aa-47f1-b092-aa194cca66a8',
      text: 'fallback answer',
    });
  });

  it('shell calls become command events (no exit code: gemini reports none), replace a file change; the answer is the text after the last call', () => {
    const { events } = run('yolo-shell-and-replace');
    const commands = events.filter((e) => e.type === 'command');
    expect(commands).toEqual([
      expect.objectContaining({ command: 'echo out; exit 3', status: 'started' }),
      expect.objectContaining({ command: 'echo out; exit 3', status: 'completed', exitCode: null, output: 'out' }),
    ]);
    expect(events).toContainEqual({ type: 'file_change', path: '/tmp/gem21/exp/repo/w.txt', kind: 'update' });
    expect(events).toContainEqual({ type: 'text', text: 'Running it.' });
    expect(events.at(-1)).toMatchObject({ type: 'done', text: 'Finished: exit 3 seen.' });
  });

  it('a shell call the hook blocked is a failed tool call, not a command that ran', () => {
    const { events } = run('hook-blocks-shell');
    const commands = events.filter((e) => e.type === 'command');
    expect(commands).toEqual([expect.objectContaining({ status: 'started', command: 'echo ran > shell.txt' })]);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'tool_result',
        isError: true,
        output: 'Tool execution blocked: agent-collab: denied by test',
      }),
    );
    expect(events).toContainEqual({ type: 'file_change', path: '/tmp/gem21/exp/repo/w.txt', kind: 'add' });
  });

  it('in a read-only turn the write and shell tools are not there: both calls fail and nothing counts as changed', () => {
    const { events } = run('read-only-write-refused');
    expect(events.filter((e) => e.type === 'file_change')).toEqual([]);
    const results = events.filter((e) => e.type === 'command' && e.status !== 'started');
    expect(results).toEqual([expect.objectContaining({ status: 'failed' })]);
    expect(events).toContainEqual(expect.objectContaining({ type: 'tool_result', isError: true }));
  });

  it('an API error ends the turn with one error event and no done', () => {
    const { events } = run('api-error-400');
    expect(events.filter((e) => e.type === 'done')).toEqual([]);
    const errors = events.filter((e) => e.type === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ type: 'error', kind: 'agent_error' });
    expect((errors[0] as { message: string }).message).toContain('scripted bad request');
  });

  it('a resumed session reports the session id it resumed', () => {
    const { events } = run('resumed-session');
    expect(events[0]).toEqual({ type: 'session', sessionId: '46be8e55-bcb2-4e4e-a6ef-ab6f064b99ad' });
    expect(events.at(-1)).toMatchObject({ type: 'done', text: 'second turn answer' });
  });

  it('output that ends without a result line still delivers the streamed text', () => {
    const state = newGeminiState();
    translateGeminiLine({ type: 'message', role: 'assistant', content: 'half', delta: true }, state);
    expect(finishGemini(state)).toEqual([{ type: 'text', text: 'half' }]);
  });
});
