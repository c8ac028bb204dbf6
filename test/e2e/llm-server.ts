/**
 * A scripted LLM server for end-to-end tests against the real `claude` and `codex` CLIs.
 *
 * One node:http server on 127.0.0.1 (random port) speaks both wire protocols the CLIs use:
 * - Anthropic Messages (claude): `POST /v1/messages` (SSE when `stream: true`, JSON otherwise),
 *   `POST /v1/messages/count_tokens`, `HEAD /`.
 * - OpenAI Responses (codex): `POST /v1/responses` (SSE).
 *
 * Each protocol has its own script: a queue of replies (`server.anthropic.push(...)`,
 * `server.openai.push(...)`) and/or a function of the request (`server.anthropic.handle(fn)`), and a list of
 * every model request it received (`server.anthropic.requests`, parsed JSON bodies). `server.requests` holds every
 * HTTP request of any kind. `close()` ends hanging requests and returns once the server is closed.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import zlib from 'node:zlib';
import { geminiCountTokens, geminiErrorBody, geminiEvents, geminiMessage, geminiRoute } from './llm-server-gemini.js';

// ---------------------------------------------------------------------------------------------------------------
// Scripted replies

/** A tool call the model makes. For OpenAI, `custom: true` makes a custom tool call (codex's `apply_patch`). */
export interface ToolCall {
  name: string;
  /** Anthropic: the tool_use input object. OpenAI function: the arguments object. OpenAI custom tool: raw text. */
  input: unknown;
  /** OpenAI only: a custom (freeform) tool call instead of a function call. */
  custom?: boolean;
  /** Optional call id (generated when absent). */
  id?: string;
}

export interface Usage {
  input_tokens?: number;
  output_tokens?: number;
}

/** Text answer; `thinking` (Anthropic) / reasoning summary (OpenAI) comes first when given. */
export interface TextReply {
  kind: 'text';
  text: string;
  thinking?: string;
  usage?: Usage;
  delayMs?: number;
  /** Streams the text in deltas of at most this many characters (as a model does), instead of three parts. */
  deltaChars?: number;
}

/** One or more tool calls (optionally preceded by text); the CLI runs them and sends a new request with results. */
export interface ToolsReply {
  kind: 'tools';
  calls: ToolCall[];
  text?: string;
  thinking?: string;
  usage?: Usage;
  delayMs?: number;
}

/** A plain HTTP error (status, JSON body in the protocol's error shape unless `body` is a string, extra headers). */
export interface ErrorReply {
  kind: 'error';
  status: number;
  /** Error message (wrapped in the protocol's error envelope) when `body` is not given. */
  message?: string;
  /** Raw body: a string is sent as is, an object as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Adds `x-should-retry: false`: claude then gives up at once instead of retrying 429/5xx up to 10 times. */
  noRetry?: boolean;
  delayMs?: number;
}

/**
 * The stream starts fine, then fails: Anthropic sends an SSE `error` event, OpenAI a `response.failed` event.
 */
export interface StreamErrorReply {
  kind: 'stream-error';
  message?: string;
  /** Anthropic error type (default overloaded_error) / OpenAI error code (default server_error). */
  type?: string;
  delayMs?: number;
}

/**
 * Never answers. `afterHeaders: true` sends the SSE headers and the first event (message_start /
 * response.created) first, then stalls. Ended by the client going away or by `close()`.
 */
export interface HangReply {
  kind: 'hang';
  afterHeaders?: boolean;
}

export type Reply = TextReply | ToolsReply | ErrorReply | StreamErrorReply | HangReply;

/** Shorthand constructors for replies. */
export const reply = {
  text: (text: string, opts: Omit<TextReply, 'kind' | 'text'> = {}): TextReply => ({ kind: 'text', text, ...opts }),
  tools: (calls: ToolCall[], opts: Omit<ToolsReply, 'kind' | 'calls'> = {}): ToolsReply => ({
    kind: 'tools',
    calls,
    ...opts,
  }),
  /** Anthropic tool_use, e.g. `reply.tool('Write', { file_path, content })`, `reply.tool('Bash', { command })`. */
  tool: (name: string, input: Record<string, unknown>, opts: Omit<ToolsReply, 'kind' | 'calls'> = {}): ToolsReply => ({
    kind: 'tools',
    calls: [{ name, input }],
    ...opts,
  }),
  /** codex's `exec_command {cmd}` function call. */
  execCommand: (cmd: string, opts: Omit<ToolsReply, 'kind' | 'calls'> = {}): ToolsReply => ({
    kind: 'tools',
    calls: [{ name: 'exec_command', input: { cmd } }],
    ...opts,
  }),
  /** codex's `apply_patch` custom tool call with raw patch text (`*** Begin Patch\n...*** End Patch\n`). */
  applyPatch: (patch: string, opts: Omit<ToolsReply, 'kind' | 'calls'> = {}): ToolsReply => ({
    kind: 'tools',
    calls: [{ name: 'apply_patch', input: patch, custom: true }],
    ...opts,
  }),
  error: (status: number, message?: string, headers?: Record<string, string>): ErrorReply => ({
    kind: 'error',
    status,
    ...(message !== undefined ? { message } : {}),
    ...(headers !== undefined ? { headers } : {}),
  }),
  /** An HTTP error the client is told not to retry (`x-should-retry: false`, honoured by claude). */
  finalError: (status: number, message?: string, headers?: Record<string, string>): ErrorReply => ({
    ...reply.error(status, message, headers),
    noRetry: true,
  }),
  /** HTTP 429 with `retry-after` (seconds) and the protocol's rate-limit headers. */
  rateLimited: (message = 'Rate limit reached (scripted)', retryAfterSeconds = 30, noRetry = false): ErrorReply => ({
    kind: 'error',
    status: 429,
    message,
    noRetry,
    headers: {
      'retry-after': String(retryAfterSeconds),
      'x-ratelimit-reset-requests': `${retryAfterSeconds}s`,
      'anthropic-ratelimit-requests-reset': new Date(Date.now() + retryAfterSeconds * 1000).toISOString(),
    },
  }),
  streamError: (message?: string, type?: string): StreamErrorReply => ({
    kind: 'stream-error',
    ...(message !== undefined ? { message } : {}),
    ...(type !== undefined ? { type } : {}),
  }),
  hang: (afterHeaders = false): HangReply => ({ kind: 'hang', afterHeaders }),
};

// ---------------------------------------------------------------------------------------------------------------
// Recorded requests

export type Protocol = 'anthropic' | 'openai' | 'gemini';

export interface RecordedRequest {
  /** 1-based, over all requests the server received. */
  seq: number;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body (undefined when empty or not JSON). */
  body: unknown;
  rawBody: string;
  /** What the server answered with ('count_tokens', 'head', 'not-found', or the reply kind). */
  answeredWith?: string;
}

/** A model request (`POST /v1/messages` or `POST /v1/responses`). */
export interface ModelRequest extends RecordedRequest {
  protocol: Protocol;
  /** 0-based index among this protocol's model requests. */
  index: number;
  /** `model` from the body. */
  model: string | undefined;
  stream: boolean;
}

/** What a handler gets: the model request and the script it belongs to. */
export type ReplyFn = (req: ModelRequest) => Reply | undefined;

/** The script of one protocol. */
export class Script {
  readonly requests: ModelRequest[] = [];
  private readonly queue: Array<Reply | ReplyFn> = [];
  private handler: ReplyFn | undefined;
  /** Used when neither the handler nor the queue answers: by default a 400 naming the request. */
  fallback: (req: ModelRequest) => Reply;

  constructor(readonly protocol: Protocol) {
    this.fallback = (req) =>
      reply.error(400, `llm-server: no scripted ${this.protocol} reply left for model request #${req.index}`);
  }

  /** Queue replies (or per-request functions) in order; each answers one model request. */
  push(...replies: Array<Reply | ReplyFn>): this {
    this.queue.push(...replies);
    return this;
  }

  /** A function consulted before the queue for every request; return undefined to fall through to the queue. */
  handle(fn: ReplyFn | undefined): this {
    this.handler = fn;
    return this;
  }

  /** Replies still queued. */
  get pending(): number {
    return this.queue.length;
  }

  /** Flattened text of a request (system prompt, messages / input items, tool results) for `toContain` checks. */
  text(index = this.requests.length - 1): string {
    const req = this.requests[index];
    return req === undefined ? '' : requestText(req.body);
  }

  /** @internal */
  next(req: ModelRequest): Reply {
    const fromHandler = this.handler?.(req);
    if (fromHandler !== undefined) return fromHandler;
    while (this.queue.length > 0) {
      const item = this.queue.shift()!;
      const r = typeof item === 'function' ? item(req) : item;
      if (r !== undefined) return r;
    }
    return this.fallback(req);
  }
}

/** Every string found in a request body's prompt-ish fields, joined with newlines. */
export function requestText(body: unknown): string {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'tools' || k === 'signature' || k === 'encrypted_content' || k === 'metadata') continue;
        if (['text', 'content', 'input', 'output', 'system', 'instructions', 'messages', 'arguments'].includes(k))
          walk(x);
        else if (typeof x === 'object') walk(x);
      }
    }
  };
  if (body !== null && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    walk(b.system);
    walk(b.instructions);
    walk(b.messages);
    walk(b.input);
  }
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// The server

export interface LlmServer {
  /** `http://127.0.0.1:PORT` (Anthropic base URL; codex's base_url is `${url}/v1`). */
  readonly url: string;
  readonly port: number;
  readonly anthropic: Script;
  readonly openai: Script;
  /** Gemini API (the `gemini` CLI): llm-server-gemini.ts. */
  readonly gemini: Script;
  /** Every HTTP request, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Requests that are hanging right now. */
  readonly hanging: number;
  close(): Promise<void>;
}

export async function startLlmServer(): Promise<LlmServer> {
  const anthropic = new Script('anthropic');
  const openai = new Script('openai');
  const gemini = new Script('gemini');
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const hanging = new Set<http.ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0) return resolve();
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  const server = http.createServer((req, res) => {
    void onRequest(req, res).catch((err: unknown) => {
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`llm-server internal error: ${String(err)}`);
      } else res.destroy();
    });
  });
  server.keepAliveTimeout = 1000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  async function onRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = raw.length > 0 ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const rec: RecordedRequest = {
      seq: requests.length + 1,
      method: req.method ?? 'GET',
      path: url.pathname,
      headers: req.headers,
      body,
      rawBody: raw,
    };
    requests.push(rec);
    if (closed) {
      res.destroy();
      return;
    }

    if (rec.method === 'HEAD' || (rec.method === 'GET' && rec.path === '/')) {
      rec.answeredWith = 'head';
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(rec.method === 'HEAD' ? undefined : 'ok');
      return;
    }
    if (rec.method === 'POST' && rec.path === '/v1/messages/count_tokens') {
      rec.answeredWith = 'count_tokens';
      sendJson(res, 200, { input_tokens: estimateTokens(raw) });
      return;
    }
    const geminiPath = rec.method === 'POST' ? geminiRoute(rec.path) : undefined;
    if (geminiPath?.method === 'countTokens') {
      rec.answeredWith = 'count_tokens';
      sendJson(res, 200, geminiCountTokens(raw));
      return;
    }
    const protocol: Protocol | undefined = geminiPath
      ? 'gemini'
      : rec.method === 'POST' && rec.path === '/v1/messages'
        ? 'anthropic'
        : rec.method === 'POST' && rec.path === '/v1/responses'
          ? 'openai'
          : undefined;
    if (protocol === undefined) {
      rec.answeredWith = 'not-found';
      sendJson(res, 404, {
        error: { type: 'not_found_error', message: `llm-server: no route ${rec.method} ${rec.path}` },
      });
      return;
    }

    const script = protocol === 'anthropic' ? anthropic : protocol === 'gemini' ? gemini : openai;
    const b = (body ?? {}) as Record<string, unknown>;
    const mreq: ModelRequest = {
      ...rec,
      protocol,
      index: script.requests.length,
      model: geminiPath ? geminiPath.model : typeof b.model === 'string' ? b.model : undefined,
      stream: geminiPath ? geminiPath.method === 'streamGenerateContent' : b.stream === true,
    };
    script.requests.push(mreq);
    const r = script.next(mreq);
    rec.answeredWith = mreq.answeredWith = r.kind;

    if (r.kind === 'hang') {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      if (r.afterHeaders) {
        res.writeHead(200, sseHeaders());
        const first =
          protocol === 'anthropic'
            ? anthropicEvents(mreq, { kind: 'text', text: '' })[0]!
            : protocol === 'gemini'
              ? geminiEvents(mreq.model ?? 'gemini', raw, { kind: 'text', text: '' })[0]!
              : openaiEvents(mreq, { kind: 'text', text: '' })[0]!;
        res.write(first);
      }
      return; // never ends until the client leaves or close()
    }
    if (r.delayMs !== undefined) await sleep(r.delayMs);
    if (closed || res.destroyed) return;

    if (r.kind === 'error') {
      const errBody =
        r.body !== undefined
          ? r.body
          : protocol === 'gemini'
            ? geminiErrorBody(r.status, r.message ?? `scripted HTTP ${r.status}`)
            : protocol === 'anthropic'
              ? {
                  type: 'error',
                  error: { type: anthropicErrorType(r.status), message: r.message ?? `scripted HTTP ${r.status}` },
                }
              : {
                  error: {
                    message: r.message ?? `scripted HTTP ${r.status}`,
                    type: openaiErrorType(r.status),
                    code: openaiErrorType(r.status),
                    param: null,
                  },
                };
      const text = typeof errBody === 'string' ? errBody : JSON.stringify(errBody);
      res.writeHead(r.status, {
        'content-type': typeof errBody === 'string' ? 'text/plain' : 'application/json',
        'content-length': Buffer.byteLength(text),
        ...(protocol === 'anthropic' ? { 'request-id': `req_${id()}` } : { 'x-request-id': `req_${id()}` }),
        ...(r.noRetry === true ? { 'x-should-retry': 'false' } : {}),
        ...r.headers,
      });
      res.end(text);
      return;
    }

    if (protocol === 'anthropic' && !mreq.stream) {
      if (r.kind === 'stream-error') {
        sendJson(res, 529, {
          type: 'error',
          error: { type: r.type ?? 'overloaded_error', message: r.message ?? 'scripted stream error' },
        });
        return;
      }
      sendJson(res, 200, anthropicMessage(mreq, r), { 'request-id': `req_${id()}` });
      return;
    }

    if (protocol === 'gemini' && !mreq.stream) {
      if (r.kind === 'stream-error') sendJson(res, 503, geminiErrorBody(503, r.message ?? 'scripted stream error'));
      else sendJson(res, 200, geminiMessage(mreq.model ?? 'gemini', raw, r));
      return;
    }
    const events =
      protocol === 'gemini'
        ? geminiEvents(mreq.model ?? 'gemini', raw, r)
        : protocol === 'anthropic'
          ? anthropicEvents(mreq, r)
          : openaiEvents(mreq, r);
    res.writeHead(200, sseHeaders(protocol));
    for (const ev of events) {
      if (res.destroyed) return;
      // A huge reply is written as fast as the client reads it, not buffered here whole.
      if (!res.write(ev))
        await new Promise<void>((resolve) => {
          const done = (): void => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.on('drain', done);
          res.on('close', done);
        });
    }
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    anthropic,
    openai,
    gemini,
    requests,
    get hanging() {
      return hanging.size;
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const res of hanging) res.destroy();
      hanging.clear();
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      for (const s of sockets) s.destroy();
      await done;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers

let counter = 0;
function id(): string {
  counter += 1;
  return `${randomUUID().replace(/-/g, '').slice(0, 20)}${counter.toString(36)}`;
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  let buf: Buffer = Buffer.concat(chunks);
  const enc = String(req.headers['content-encoding'] ?? '').toLowerCase();
  try {
    if (enc === 'gzip') buf = zlib.gunzipSync(buf);
    else if (enc === 'deflate') buf = zlib.inflateSync(buf);
    else if (enc === 'br') buf = zlib.brotliDecompressSync(buf);
    else if (enc === 'zstd') {
      const z = zlib as unknown as { zstdDecompressSync?: (b: Buffer) => Buffer };
      if (z.zstdDecompressSync) buf = z.zstdDecompressSync(buf);
    }
  } catch {
    // keep the raw bytes
  }
  return buf.toString('utf8');
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sseHeaders(protocol?: Protocol): http.OutgoingHttpHeaders {
  return {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...(protocol === 'anthropic'
      ? { 'request-id': `req_${id()}` }
      : protocol === 'openai'
        ? { 'x-request-id': `req_${id()}` }
        : {}),
  };
}

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function estimateTokens(s: string): number {
  return Math.max(1, Math.ceil(s.length / 4));
}

/** Split text into a few chunks (or chunks of `maxChars`) so clients see several deltas. */
function chunks(s: string, n = 3, maxChars?: number): string[] {
  if (s.length === 0) return [];
  const size = maxChars ?? Math.max(1, Math.ceil(s.length / n));
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

function anthropicErrorType(status: number): string {
  if (status === 400) return 'invalid_request_error';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status === 529) return 'overloaded_error';
  return 'api_error';
}

function openaiErrorType(status: number): string {
  if (status === 400) return 'invalid_request_error';
  if (status === 401) return 'invalid_api_key';
  if (status === 403) return 'permission_denied';
  if (status === 429) return 'rate_limit_exceeded';
  return 'server_error';
}

// --- Anthropic Messages ---------------------------------------------------------------------------------------

type AnthropicBlock =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown };

function anthropicBlocks(r: TextReply | ToolsReply): AnthropicBlock[] {
  const blocks: AnthropicBlock[] = [];
  if (r.thinking !== undefined) blocks.push({ type: 'thinking', thinking: r.thinking, signature: `sig_${id()}` });
  if (r.kind === 'text') blocks.push({ type: 'text', text: r.text });
  else {
    if (r.text !== undefined) blocks.push({ type: 'text', text: r.text });
    for (const c of r.calls)
      blocks.push({ type: 'tool_use', id: c.id ?? `toolu_${id()}`, name: c.name, input: c.input ?? {} });
  }
  return blocks;
}

function anthropicUsage(req: ModelRequest, r: TextReply | ToolsReply, blocks: AnthropicBlock[]) {
  return {
    input_tokens: r.usage?.input_tokens ?? estimateTokens(req.rawBody),
    output_tokens: r.usage?.output_tokens ?? estimateTokens(JSON.stringify(blocks)),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
}

function anthropicMessage(req: ModelRequest, r: TextReply | ToolsReply) {
  const blocks = anthropicBlocks(r);
  return {
    id: `msg_${id()}`,
    type: 'message',
    role: 'assistant',
    model: req.model ?? 'claude-sonnet-4-5',
    content: blocks,
    stop_reason: r.kind === 'tools' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: anthropicUsage(req, r, blocks),
  };
}

function anthropicEvents(req: ModelRequest, r: TextReply | ToolsReply | StreamErrorReply): string[] {
  const base = r.kind === 'stream-error' ? reply.text('') : r;
  const msg = anthropicMessage(req, base);
  const usage = msg.usage;
  const out: string[] = [
    sse('message_start', {
      type: 'message_start',
      message: { ...msg, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
    }),
  ];
  if (r.kind === 'stream-error') {
    out.push(sse('ping', { type: 'ping' }));
    out.push(
      sse('error', {
        type: 'error',
        error: { type: r.type ?? 'overloaded_error', message: r.message ?? 'scripted stream error' },
      }),
    );
    return out;
  }
  msg.content.forEach((block, index) => {
    if (block.type === 'text') {
      out.push(
        sse('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }),
      );
      if (index === 0) out.push(sse('ping', { type: 'ping' }));
      for (const t of chunks(block.text, 3, r.kind === 'text' ? r.deltaChars : undefined))
        out.push(
          sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: t } }),
        );
    } else if (block.type === 'thinking') {
      out.push(
        sse('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'thinking', thinking: '', signature: '' },
        }),
      );
      for (const t of chunks(block.thinking))
        out.push(
          sse('content_block_delta', {
            type: 'content_block_delta',
            index,
            delta: { type: 'thinking_delta', thinking: t },
          }),
        );
      out.push(
        sse('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'signature_delta', signature: block.signature },
        }),
      );
    } else {
      out.push(
        sse('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        }),
      );
      for (const j of chunks(JSON.stringify(block.input)))
        out.push(
          sse('content_block_delta', {
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: j },
          }),
        );
    }
    out.push(sse('content_block_stop', { type: 'content_block_stop', index }));
  });
  out.push(
    sse('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: msg.stop_reason, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    }),
  );
  out.push(sse('message_stop', { type: 'message_stop' }));
  return out;
}

// --- OpenAI Responses ------------------------------------------------------------------------------------------

function openaiEvents(req: ModelRequest, r: TextReply | ToolsReply | StreamErrorReply): string[] {
  let seq = 0;
  const ev = (type: string, data: Record<string, unknown>) => sse(type, { type, sequence_number: seq++, ...data });
  const respId = `resp_${id()}`;
  const created_at = Math.floor(Date.now() / 1000);
  const model = req.model ?? 'gpt-5.5';
  const response = (status: string, output: unknown[], extra: Record<string, unknown> = {}) => ({
    id: respId,
    object: 'response',
    created_at,
    status,
    model,
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    error: null,
    incomplete_details: null,
    usage: null,
    ...extra,
  });
  const out: string[] = [ev('response.created', { response: response('in_progress', []) })];
  out.push(ev('response.in_progress', { response: response('in_progress', []) }));

  if (r.kind === 'stream-error') {
    out.push(
      ev('response.failed', {
        response: response('failed', [], {
          error: { code: r.type ?? 'server_error', message: r.message ?? 'scripted stream error' },
        }),
      }),
    );
    return out;
  }

  const items: Array<Record<string, unknown>> = [];
  const addItem = (item: Record<string, unknown>, between: (outputIndex: number) => string[]) => {
    const output_index = items.length;
    const { status: _s, ...rest } = item;
    const inProgress: Record<string, unknown> = { ...rest, status: 'in_progress' };
    if (item.type === 'message') inProgress.content = [];
    if (item.type === 'function_call') inProgress.arguments = '';
    if (item.type === 'custom_tool_call') inProgress.input = '';
    if (item.type === 'reasoning') inProgress.summary = [];
    out.push(ev('response.output_item.added', { output_index, item: inProgress }));
    out.push(...between(output_index));
    out.push(ev('response.output_item.done', { output_index, item }));
    items.push(item);
  };

  if (r.thinking !== undefined) {
    const item_id = `rs_${id()}`;
    const text = r.thinking;
    addItem({ id: item_id, type: 'reasoning', summary: [{ type: 'summary_text', text }] }, (output_index) => [
      ev('response.reasoning_summary_part.added', {
        item_id,
        output_index,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      }),
      ...chunks(text).map((delta) =>
        ev('response.reasoning_summary_text.delta', { item_id, output_index, summary_index: 0, delta }),
      ),
      ev('response.reasoning_summary_text.done', { item_id, output_index, summary_index: 0, text }),
      ev('response.reasoning_summary_part.done', {
        item_id,
        output_index,
        summary_index: 0,
        part: { type: 'summary_text', text },
      }),
    ]);
  }
  const text = r.kind === 'text' ? r.text : r.text;
  if (text !== undefined) {
    const item_id = `msg_${id()}`;
    const part = { type: 'output_text', text, annotations: [] };
    addItem(
      { id: item_id, type: 'message', status: 'completed', role: 'assistant', content: [part] },
      (output_index) => [
        ev('response.content_part.added', { item_id, output_index, content_index: 0, part: { ...part, text: '' } }),
        ...chunks(text, 3, r.kind === 'text' ? r.deltaChars : undefined).map((delta) =>
          ev('response.output_text.delta', { item_id, output_index, content_index: 0, delta, logprobs: [] }),
        ),
        ev('response.output_text.done', { item_id, output_index, content_index: 0, text, logprobs: [] }),
        ev('response.content_part.done', { item_id, output_index, content_index: 0, part }),
      ],
    );
  }
  if (r.kind === 'tools') {
    for (const c of r.calls) {
      const call_id = c.id ?? `call_${id()}`;
      if (c.custom) {
        const input = typeof c.input === 'string' ? c.input : JSON.stringify(c.input);
        const item_id = `ctc_${id()}`;
        addItem(
          { id: item_id, type: 'custom_tool_call', status: 'completed', call_id, name: c.name, input },
          (output_index) => [
            ...chunks(input).map((delta) =>
              ev('response.custom_tool_call_input.delta', { item_id, output_index, delta }),
            ),
            ev('response.custom_tool_call_input.done', { item_id, output_index, input }),
          ],
        );
      } else {
        const args = typeof c.input === 'string' ? c.input : JSON.stringify(c.input ?? {});
        const item_id = `fc_${id()}`;
        addItem(
          { id: item_id, type: 'function_call', status: 'completed', call_id, name: c.name, arguments: args },
          (output_index) => [
            ...chunks(args).map((delta) =>
              ev('response.function_call_arguments.delta', { item_id, output_index, delta }),
            ),
            ev('response.function_call_arguments.done', { item_id, output_index, arguments: args }),
          ],
        );
      }
    }
  }
  const input_tokens = r.usage?.input_tokens ?? estimateTokens(req.rawBody);
  const output_tokens = r.usage?.output_tokens ?? estimateTokens(JSON.stringify(items));
  out.push(
    ev('response.completed', {
      response: response('completed', items, {
        usage: {
          input_tokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: input_tokens + output_tokens,
        },
      }),
    }),
  );
  return out;
}
