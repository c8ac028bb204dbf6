/**
 * The scripted LLM server on its own (no CLIs): routes, scripting order, recording, error shapes, SSE framing,
 * hangs ended by close().
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, requestText, startLlmServer, type LlmServer } from './llm-server.js';

let server: LlmServer;
beforeEach(async () => {
  server = await startLlmServer();
});
afterEach(async () => {
  await server.close();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/** Parses an SSE body into [event, data] pairs. */
function events(text: string): Array<[string, Record<string, unknown>]> {
  return text
    .split('\n\n')
    .filter((b) => b.trim())
    .map((b) => {
      const ev = /^event: (.*)$/m.exec(b)?.[1] ?? '';
      const data = /^data: (.*)$/m.exec(b)?.[1] ?? '{}';
      return [ev, JSON.parse(data) as Record<string, unknown>];
    });
}

describe('scripted LLM server', () => {
  it('answers HEAD /, count_tokens and unknown routes, and records every request', async () => {
    expect((await fetch(server.url, { method: 'HEAD' })).status).toBe(200);
    const ct = await post('/v1/messages/count_tokens', { messages: [{ role: 'user', content: 'hi there' }] });
    expect(((await ct.json()) as { input_tokens: number }).input_tokens).toBeGreaterThan(0);
    expect((await post('/v1/nope', {})).status).toBe(404);
    expect(server.requests.map((r) => [r.method, r.path, r.answeredWith])).toEqual([
      ['HEAD', '/', 'head'],
      ['POST', '/v1/messages/count_tokens', 'count_tokens'],
      ['POST', '/v1/nope', 'not-found'],
    ]);
    expect(server.anthropic.requests).toHaveLength(0);
  });

  it('streams an Anthropic tool_use turn with the full event sequence', async () => {
    server.anthropic.push(reply.tool('Write', { file_path: '/x/a.txt', content: 'A' }, { text: 'writing' }));
    const res = await post('/v1/messages', { model: 'm1', stream: true, messages: [{ role: 'user', content: 'go' }] });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const evs = events(await res.text());
    expect(evs.map(([e]) => e).filter((e) => e !== 'ping')).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const json = evs
      .filter(([, d]) => (d.delta as Record<string, unknown> | undefined)?.type === 'input_json_delta')
      .map(([, d]) => (d.delta as { partial_json: string }).partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual({ file_path: '/x/a.txt', content: 'A' });
    const delta = evs.find(([e]) => e === 'message_delta')![1];
    expect(delta).toMatchObject({ delta: { stop_reason: 'tool_use' }, usage: { output_tokens: expect.any(Number) } });
    expect(server.anthropic.requests[0]).toMatchObject({ model: 'm1', stream: true, index: 0 });
  });

  it('answers a non-streaming Anthropic request with a JSON message', async () => {
    server.anthropic.push(reply.text('plain'));
    const res = await post('/v1/messages', { model: 'm1', messages: [{ role: 'user', content: 'go' }] });
    expect(await res.json()).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'm1',
      content: [{ type: 'text', text: 'plain' }],
      stop_reason: 'end_turn',
    });
  });

  it('streams OpenAI Responses text + function_call + custom_tool_call items', async () => {
    server.openai.push(
      reply.tools(
        [
          { name: 'exec_command', input: { cmd: 'ls' } },
          { name: 'apply_patch', input: '*** Begin Patch\n*** End Patch\n', custom: true },
        ],
        { text: 'doing it' },
      ),
    );
    const res = await post('/v1/responses', { model: 'gpt-5.5', stream: true, input: [] });
    const evs = events(await res.text());
    expect(evs.every(([e, d]) => e === d.type)).toBe(true);
    expect(evs[0]![0]).toBe('response.created');
    const completed = evs.at(-1)!;
    expect(completed[0]).toBe('response.completed');
    const resp = completed[1].response as { output: Array<Record<string, unknown>>; usage: Record<string, number> };
    expect(resp.output.map((o) => o.type)).toEqual(['message', 'function_call', 'custom_tool_call']);
    expect(resp.output[1]).toMatchObject({ name: 'exec_command', arguments: '{"cmd":"ls"}' });
    expect(resp.output[2]).toMatchObject({ name: 'apply_patch', input: '*** Begin Patch\n*** End Patch\n' });
    expect(resp.usage.total_tokens).toBe(resp.usage.input_tokens! + resp.usage.output_tokens!);
    expect(evs.filter(([e]) => e === 'response.output_item.done')).toHaveLength(3);
    expect(evs.map(([e]) => e)).toContain('response.output_text.delta');
  });

  it('sends scripted HTTP errors in each protocol shape, with headers', async () => {
    server.anthropic.push(reply.rateLimited('slow down', 7, true));
    server.openai.push(reply.error(401, 'bad key'));
    const a = await post('/v1/messages', { stream: true });
    expect(a.status).toBe(429);
    expect(a.headers.get('retry-after')).toBe('7');
    expect(a.headers.get('x-should-retry')).toBe('false');
    expect(await a.json()).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } });
    const o = await post('/v1/responses', { stream: true });
    expect(o.status).toBe(401);
    expect(await o.json()).toMatchObject({ error: { message: 'bad key' } });
  });

  it('uses the handler before the queue, and a 400 naming the request when nothing is scripted', async () => {
    server.openai.handle((req) => (req.model === 'special' ? reply.text('from handler') : undefined));
    server.openai.push((req) => reply.text(`queued for #${req.index}`));
    const h = await (await post('/v1/responses', { model: 'special', stream: true })).text();
    expect(h).toContain('from handler');
    const q = await (await post('/v1/responses', { model: 'x', stream: true })).text();
    expect(q).toContain('queued for #1');
    const none = await post('/v1/responses', { model: 'x', stream: true });
    expect(none.status).toBe(400);
    expect(await none.text()).toContain('no scripted openai reply left for model request #2');
  });

  it('flattens prompt text of both protocols', () => {
    expect(
      requestText({
        system: [{ type: 'text', text: 'SYS' }],
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'U1' },
              { type: 'tool_result', content: 'TR' },
            ],
          },
        ],
        tools: [{ description: 'NOT-THIS' }],
      }).split('\n'),
    ).toEqual(['SYS', 'U1', 'TR']);
    expect(
      requestText({
        instructions: 'INS',
        input: [
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'U1' }] },
          { type: 'function_call_output', call_id: 'c', output: 'OUT' },
        ],
      }).split('\n'),
    ).toEqual(['INS', 'U1', 'OUT']);
  });

  it('ends hanging requests on close()', async () => {
    server.anthropic.push(reply.hang(true));
    server.openai.push(reply.hang());
    const a = post('/v1/messages', { stream: true }).then(async (r) => r.text());
    const o = post('/v1/responses', { stream: true }).then(async (r) => r.text());
    const settled = Promise.allSettled([a, o]);
    for (let i = 0; i < 100 && server.hanging < 2; i++) await new Promise((r) => setTimeout(r, 10));
    expect(server.hanging).toBe(2);
    await server.close();
    const results = await settled;
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(server.hanging).toBe(0);
  });
});
