// Pure translation of `claude -p --output-format stream-json --verbose` lines into AgentEvents
// (shapes: ../shared/cli-facts/samples/README.md). Bash calls become `command` events, Write/Edit successes
// also `file_change`; every other tool is a tool_call/tool_result pair.
import type { AgentEvent } from '../../core/types.js';
import { classifyFailure } from '../failure-kind.js';
import { arr, num, obj, str, type Json } from '../json-fields.js';
import { TOOL_OUTPUT_MAX_BYTES, truncateMiddle } from '../truncate.js';
import { commandEnded, errorEvent, toolResultEvents } from '../agent-events.js';

export interface ClaudeTranslatorState {
  sessionId: string | null;
  /** tool_use blocks by id, to interpret their tool_result. */
  toolUses: Map<string, { name: string; input: Json }>;
}

export function newClaudeState(): ClaudeTranslatorState {
  return { sessionId: null, toolUses: new Map() };
}

const FILE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

function system(line: Json, state: ClaudeTranslatorState): AgentEvent[] {
  if (line.subtype === 'init') {
    const sessionId = str(line.session_id);
    if (!sessionId) return [];
    state.sessionId = sessionId;
    return [{ type: 'session', sessionId }];
  }
  if (line.subtype === 'api_retry') return [apiRetry(line)];
  return [];
}

/**
 * `{"type":"system","subtype":"api_retry","attempt":1,"max_retries":10,"retry_delay_ms":40000,"error_status":429,
 * "error":"rate_limit"}`: claude retries by itself (429 with a retry-after up to 60 s, 5xx, 529, also 401), waiting
 * `retry_delay_ms` first. The engine decides whether to let it wait.
 */
function apiRetry(line: Json): AgentEvent {
  const status = num(line.error_status);
  const error = str(line.error) ?? 'error';
  const delay = num(line.retry_delay_ms);
  const attempt = num(line.attempt) ?? 1;
  const max = num(line.max_retries);
  const waitSeconds = delay === null ? null : delay / 1000;
  const message =
    `API error${status !== null ? ` ${status}` : ''} (${error}); claude retries (${attempt}/${max ?? '?'})` +
    (waitSeconds !== null ? ` in ${waitSeconds.toFixed(1)} s` : '');
  const { kind } = classifyFailure({ message: error, status });
  return { type: 'retry', attempt, maxAttempts: max, status, waitSeconds, kind, message };
}

function assistant(line: Json, state: ClaudeTranslatorState): AgentEvent[] {
  const message = obj(line.message);
  // "<synthetic>" messages are claude's own (e.g. "API Error: 400 …"); the result line reports them as the error.
  if (!message || message.model === '<synthetic>') return [];
  return arr(message.content).flatMap((raw): AgentEvent[] => {
    const block = obj(raw);
    switch (block?.type) {
      case 'text':
        return [{ type: 'text', text: str(block.text) ?? '' }];
      case 'thinking':
        return [{ type: 'reasoning', text: str(block.thinking) ?? '' }];
      case 'tool_use': {
        const id = str(block.id) ?? '';
        const name = str(block.name) ?? '?';
        const input = obj(block.input) ?? {};
        state.toolUses.set(id, { name, input });
        if (name === 'Bash') return [{ type: 'command', id, command: str(input.command) ?? '', status: 'started' }];
        return [{ type: 'tool_call', id, name, input }];
      }
      default:
        return [];
    }
  });
}

/** tool_result content: a string, or blocks of which the text ones count. */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  return arr(content)
    .map((b) => obj(b))
    .map((b) => (b?.type === 'text' ? (str(b.text) ?? '') : b?.type === 'image' ? '[image]' : ''))
    .join('\n');
}

function toolResult(block: Json, toolUseResult: Json | null, state: ClaudeTranslatorState): AgentEvent[] {
  const id = str(block.tool_use_id) ?? '';
  const isError = block.is_error === true;
  const output = truncateMiddle(resultText(block.content), TOOL_OUTPUT_MAX_BYTES);
  const use = state.toolUses.get(id);
  state.toolUses.delete(id);
  if (use?.name === 'Bash') {
    const exitCode = isError ? Number(/^Exit code (\d+)/.exec(output)?.[1] ?? NaN) : 0;
    return commandEnded(id, str(use.input.command) ?? '', isError, exitCode, output);
  }
  const path = use && FILE_TOOLS.has(use.name) ? (str(use.input.file_path) ?? str(use.input.notebook_path)) : null;
  return toolResultEvents(id, output, isError, { path, kind: toolUseResult?.type === 'create' ? 'add' : 'update' });
}

function user(line: Json, state: ClaudeTranslatorState): AgentEvent[] {
  const content = arr(obj(line.message)?.content);
  const toolUseResult = obj(line.tool_use_result);
  return content.flatMap((raw) => {
    const block = obj(raw);
    return block?.type === 'tool_result' ? toolResult(block, toolUseResult, state) : [];
  });
}

function usage(line: Json): AgentEvent {
  const u = obj(line.usage) ?? {};
  const cached = num(u.cache_read_input_tokens) ?? 0;
  return {
    type: 'usage',
    inputTokens: (num(u.input_tokens) ?? 0) + (num(u.cache_creation_input_tokens) ?? 0) + cached,
    outputTokens: num(u.output_tokens) ?? 0,
    cachedTokens: cached,
    costUsd: num(line.total_cost_usd) ?? 0,
    durationMs: num(line.duration_ms) ?? 0,
  };
}

function describeDenial(raw: unknown): string {
  const d = obj(raw) ?? {};
  const input = obj(d.tool_input) ?? {};
  const target = str(input.file_path) ?? str(input.command) ?? str(input.notebook_path) ?? '';
  return `${str(d.tool_name) ?? '?'}${target ? ` ${target}` : ''}`;
}

function result(line: Json, state: ClaudeTranslatorState, now?: Date): AgentEvent[] {
  const sessionId = str(line.session_id) ?? state.sessionId;
  const events: AgentEvent[] = line.usage !== undefined ? [usage(line)] : [];
  if (line.is_error === true || line.subtype !== 'success') {
    const errors = arr(line.errors).filter((e): e is string => typeof e === 'string');
    const message =
      [...errors, str(line.result) ?? ''].filter(Boolean).join('; ') ||
      `claude ended with ${str(line.subtype) ?? 'an error'}`;
    if (errors.some((e) => /no conversation found/i.test(e)))
      return [...events, { type: 'error', kind: 'session_lost', message }];
    events.push(errorEvent(classifyFailure({ message, status: num(line.api_error_status), now }), message));
    return events;
  }
  const denials = arr(line.permission_denials);
  if (denials.length > 0) {
    events.push({
      type: 'tool_result',
      output: `permission denied for ${denials.length} tool call(s): ${denials.map(describeDenial).join('; ')}`,
      isError: true,
    });
  }
  events.push({ type: 'done', sessionId, text: str(line.result) ?? '' });
  return events;
}

/** Events for one parsed JSON line. `now` is only used to turn "try again in …" into a reset time. */
export function translateClaudeLine(line: Json, state: ClaudeTranslatorState, now?: Date): AgentEvent[] {
  switch (line.type) {
    case 'system':
      return system(line, state);
    case 'assistant':
      return assistant(line, state);
    case 'user':
      return user(line, state);
    case 'result':
      return result(line, state, now);
    default:
      return []; // stream_event (partial messages) and anything newer
  }
}
