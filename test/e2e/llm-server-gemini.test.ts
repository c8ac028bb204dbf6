// The scripted server's Gemini API (no CLI needed): streamed text and function calls, countTokens, errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply, startLlmServer, type LlmServer } from './llm-server.js';

let server: LlmServer;
beforeAll(async () => {
  server = await startLlmServer();
});
afterAll(() => server.close());

const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });

async function post(method: string): Promise<Response> {
  return fetch(`${server.url}/v1beta/models/gemini-2.5-flash:${method}?alt=sse`, { method: 'POST', body });
}

function dataLines(sse: string): Array<Record<string, unknown>> {
  return sse
    .split('\r\n\r\n')
    .filter((chunk) => chunk.startsWith('data: '))
    .map((chunk) => JSON.parse(chunk.slice('data: '.length)) as Record<string, unknown>);
}

describe('llm-server Gemini API', () => {
  it('streams text and a function call as GenerateContentResponse chunks, the last with STOP and usage', async () => {
    server.gemini.push(reply.tool('run_shell_command', { command: 'ls' }, { text: 'Looking.' }));
    const res = await post('streamGenerateContent');
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const chunks = dataLines(await res.text());
    const parts = chunks.flatMap((c) =>
      (c.candidates as Array<{ content: { parts: unknown[] } }>).flatMap((x) => x.content.parts),
    );
    expect(parts.map((p) => (p as { text?: string }).text ?? '').join('')).toBe('Looking.');
    expect(parts).toContainEqual({ functionCall: { name: 'run_shell_command', args: { command: 'ls' } } });
    const last = chunks.at(-1) as { candidates: Array<{ finishReason?: string }>; usageMetadata?: unknown };
    expect(last.candidates[0]?.finishReason).toBe('STOP');
    expect(last.usageMetadata).toBeDefined();
    expect(server.gemini.requests.at(-1)).toMatchObject({ model: 'gemini-2.5-flash', stream: true });
  });

  it('answers countTokens without using the script, and errors in the Gemini error envelope', async () => {
    const count = (await (await post('countTokens')).json()) as { totalTokens: number };
    expect(count.totalTokens).toBeGreaterThan(0);
    server.gemini.push(reply.error(429, 'slow down'));
    const res = await post('streamGenerateContent');
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ error: { code: 429, message: 'slow down', status: 'RESOURCE_EXHAUSTED' } });
  });
});
