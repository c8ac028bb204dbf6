/**
 * The Gemini API wire format of the scripted LLM server (llm-server.ts), for the real `gemini` CLI
 * (`@google/gemini-cli`), pointed at the server with `GOOGLE_GEMINI_BASE_URL=<url>` and `GEMINI_API_KEY=<anything>`.
 *
 * The CLI calls `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` (SSE: `data: <GenerateContentResponse>`
 * lines) for its turns, and `:generateContent` / `:countTokens` for side requests (measured on 0.61.0, see
 * docs/agents/gemini.md). A tool call is a `functionCall` part; the CLI answers it with a `functionResponse` part in
 * the next request.
 */
import { randomUUID } from 'node:crypto';

/** What the Gemini routes need from a scripted reply (the shapes of llm-server.ts's replies). */
interface ScriptedText {
  kind: 'text';
  text: string;
  thinking?: string;
  usage?: { input_tokens?: number; output_tokens?: number };
  deltaChars?: number;
}
interface ScriptedTools {
  kind: 'tools';
  calls: Array<{ name: string; input: unknown; id?: string }>;
  text?: string;
  thinking?: string;
  usage?: { input_tokens?: number; output_tokens?: number };
}
interface ScriptedStreamError {
  kind: 'stream-error';
  message?: string;
}

export type GeminiMethod = 'streamGenerateContent' | 'generateContent' | 'countTokens';

/** `{ model, method }` for a Gemini API path (`/v1beta/models/<model>:<method>`), else undefined. */
export function geminiRoute(path: string): { model: string; method: GeminiMethod } | undefined {
  const m = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(streamGenerateContent|generateContent|countTokens)$/.exec(path);
  return m ? { model: decodeURIComponent(m[1]!), method: m[2] as GeminiMethod } : undefined;
}

type Part = { text: string; thought?: boolean } | { functionCall: { name: string; args: unknown; id?: string } };

function parts(r: ScriptedText | ScriptedTools): Part[] {
  const out: Part[] = [];
  if (r.thinking !== undefined) out.push({ text: r.thinking, thought: true });
  if (r.kind === 'text') out.push({ text: r.text });
  else {
    if (r.text !== undefined) out.push({ text: r.text });
    for (const c of r.calls) out.push({ functionCall: { name: c.name, args: c.input ?? {} } });
  }
  return out;
}

function usageMetadata(rawBody: string, r: ScriptedText | ScriptedTools) {
  const prompt = r.usage?.input_tokens ?? Math.max(1, Math.ceil(rawBody.length / 4));
  const out = r.usage?.output_tokens ?? Math.max(1, Math.ceil(JSON.stringify(parts(r)).length / 4));
  return { promptTokenCount: prompt, candidatesTokenCount: out, totalTokenCount: prompt + out };
}

function response(model: string, ps: Part[], finish: string | undefined, usage?: ReturnType<typeof usageMetadata>) {
  return {
    candidates: [
      { content: { role: 'model', parts: ps }, index: 0, ...(finish !== undefined ? { finishReason: finish } : {}) },
    ],
    ...(usage ? { usageMetadata: usage } : {}),
    modelVersion: model,
    responseId: randomUUID().replace(/-/g, '').slice(0, 22),
  };
}

function data(json: unknown): string {
  return `data: ${JSON.stringify(json)}\r\n\r\n`;
}

/** The SSE chunks of one scripted reply: text in a few deltas, then the calls, the last with finishReason and usage. */
export function geminiEvents(
  model: string,
  rawBody: string,
  r: ScriptedText | ScriptedTools | ScriptedStreamError,
): string[] {
  if (r.kind === 'stream-error')
    return [
      data(response(model, [{ text: '' }], undefined)),
      data({ error: { code: 503, message: r.message ?? 'scripted stream error', status: 'UNAVAILABLE' } }),
    ];
  const all = parts(r);
  const usage = usageMetadata(rawBody, r);
  const out: string[] = [];
  for (const p of all) {
    if ('text' in p && p.text.length > 0) {
      const size = r.kind === 'text' && r.deltaChars ? r.deltaChars : Math.max(1, Math.ceil(p.text.length / 3));
      for (let i = 0; i < p.text.length; i += size)
        out.push(data(response(model, [{ ...p, text: p.text.slice(i, i + size) }], undefined)));
    } else out.push(data(response(model, [p], undefined)));
  }
  if (out.length === 0) out.push(data(response(model, [{ text: '' }], undefined)));
  out.push(data(response(model, [{ text: '' }], 'STOP', usage)));
  return out;
}

/** A non-streaming `generateContent` answer (the CLI's side requests: routing, summaries, next-speaker checks). */
export function geminiMessage(model: string, rawBody: string, r: ScriptedText | ScriptedTools) {
  return response(model, parts(r), 'STOP', usageMetadata(rawBody, r));
}

/** `countTokens` answer. */
export function geminiCountTokens(rawBody: string) {
  return { totalTokens: Math.max(1, Math.ceil(rawBody.length / 4)) };
}

/** The Gemini API's error envelope. */
export function geminiErrorBody(status: number, message: string) {
  const name =
    status === 400
      ? 'INVALID_ARGUMENT'
      : status === 401
        ? 'UNAUTHENTICATED'
        : status === 403
          ? 'PERMISSION_DENIED'
          : status === 404
            ? 'NOT_FOUND'
            : status === 429
              ? 'RESOURCE_EXHAUSTED'
              : 'UNAVAILABLE';
  return { error: { code: status, message, status: name } };
}
