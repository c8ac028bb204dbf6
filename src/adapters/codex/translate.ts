// Pure translation of `codex exec --json` lines into AgentEvents (shapes: ../shared/cli-facts/samples/README.md).
import type { AgentEvent } from '../../core/types.js';
import { classifyFailure, statusInText } from '../failure-kind.js';
import { arr, num, obj, str, type Json } from '../json-fields.js';
import { TOOL_OUTPUT_MAX_BYTES, truncateMiddle } from '../truncate.js';
import { errorEvent } from '../agent-events.js';

export interface CodexTranslatorState {
  threadId: string | null;
  /** The last agent_message: the turn's final answer. */
  lastMessage: string | null;
  /** An `error` line's message; it only counts if the turn then fails or the stream ends without completing. */
  pendingError: string | null;
  /** turn.completed or turn.failed was seen. */
  turnEnded: boolean;
  /** The attempt of the last retry announced on stderr (with its wait), so its stdout line adds no second event. */
  retryOnStderr: number | null;
}

export function newCodexState(): CodexTranslatorState {
  return { threadId: null, lastMessage: null, pendingError: null, turnEnded: false, retryOnStderr: null };
}

/**
 * The warning codex 0.169 emits twice (as `item.completed` error items, first in the stream) when run with
 * `--dangerously-bypass-hook-trust`, which agent-collab passes on purpose. Dropped; other error items are kept.
 */
export const HOOK_TRUST_WARNING =
  '`--dangerously-bypass-hook-trust` is enabled. Enabled hooks may run without review for this invocation.';

const FILE_CHANGE_KINDS = new Set(['add', 'update', 'delete']);

function failure(message: string, now?: Date): AgentEvent {
  const f = classifyFailure({ message, now });
  return errorEvent(f, f.message);
}

function itemStarted(item: Json): AgentEvent[] {
  const id = str(item.id) ?? undefined;
  switch (item.type) {
    case 'command_execution':
      return [{ type: 'command', id, command: str(item.command) ?? '', status: 'started' }];
    case 'mcp_tool_call':
      return [
        {
          type: 'tool_call',
          id,
          name: `${str(item.server) ?? 'mcp'}.${str(item.tool) ?? '?'}`,
          input: item.arguments ?? null,
        },
      ];
    default:
      return [];
  }
}

function itemCompleted(item: Json, state: CodexTranslatorState): AgentEvent[] {
  const id = str(item.id) ?? undefined;
  switch (item.type) {
    case 'agent_message': {
      const text = str(item.text) ?? '';
      state.lastMessage = text;
      return [{ type: 'text', text }];
    }
    case 'reasoning':
      return [{ type: 'reasoning', text: str(item.text) ?? '' }];
    case 'command_execution':
      return [
        {
          type: 'command',
          id,
          command: str(item.command) ?? '',
          status: item.status === 'completed' ? 'completed' : 'failed',
          exitCode: num(item.exit_code),
          output: truncateMiddle(str(item.aggregated_output) ?? '', TOOL_OUTPUT_MAX_BYTES),
        },
      ];
    case 'file_change': {
      const changes = arr(item.changes)
        .map(obj)
        .filter((c): c is Json => c !== null);
      if (item.status !== 'completed') {
        const paths = changes.map((c) => str(c.path) ?? '?').join(', ');
        return [
          {
            type: 'tool_result',
            id,
            output: `patch not applied (${str(item.status) ?? 'unknown status'}): ${paths}`,
            isError: true,
          },
        ];
      }
      return changes.flatMap((c): AgentEvent[] => {
        const path = str(c.path);
        const kind = str(c.kind);
        return path && kind && FILE_CHANGE_KINDS.has(kind)
          ? [{ type: 'file_change', path, kind: kind as 'add' | 'update' | 'delete' }]
          : [];
      });
    }
    case 'mcp_tool_call': {
      const error = obj(item.error);
      const output = error ? (str(error.message) ?? 'failed') : JSON.stringify(item.result ?? null);
      return [
        {
          type: 'tool_result',
          id,
          output: truncateMiddle(output, TOOL_OUTPUT_MAX_BYTES),
          isError: error !== null || item.status === 'failed',
        },
      ];
    }
    case 'web_search':
      return [{ type: 'tool_call', id, name: 'web_search', input: { query: str(item.query) ?? '' } }];
    case 'error':
      if (item.message === HOOK_TRUST_WARNING) return [];
      // Non-fatal: a warning from codex itself (e.g. unknown model metadata); the turn goes on.
      return [{ type: 'tool_result', id, output: `codex warning: ${str(item.message) ?? ''}`, isError: true }];
    default:
      return [];
  }
}

function usage(line: Json): AgentEvent[] {
  const u = obj(line.usage);
  if (!u) return [];
  return [
    {
      type: 'usage',
      inputTokens: num(u.input_tokens) ?? 0,
      outputTokens: num(u.output_tokens) ?? 0,
      cachedTokens: num(u.cached_input_tokens) ?? 0,
    },
  ];
}

/** Events for one parsed JSON line. `now` is only used to turn "try again in …" into a reset time. */
export function translateCodexLine(line: Json, state: CodexTranslatorState, now?: Date): AgentEvent[] {
  switch (line.type) {
    case 'thread.started': {
      const threadId = str(line.thread_id);
      if (!threadId) return [];
      state.threadId = threadId;
      return [{ type: 'session', sessionId: threadId }];
    }
    case 'item.started': {
      const item = obj(line.item);
      return item ? itemStarted(item) : [];
    }
    case 'item.completed': {
      const item = obj(line.item);
      return item ? itemCompleted(item, state) : [];
    }
    case 'turn.completed': {
      state.turnEnded = true;
      state.pendingError = null;
      const end: AgentEvent =
        state.lastMessage !== null
          ? { type: 'done', sessionId: state.threadId, text: state.lastMessage }
          : { type: 'error', kind: 'agent_error', message: 'codex completed its turn without a message' };
      return [...usage(line), end];
    }
    case 'error': {
      const message = str(line.message) ?? 'unknown error';
      state.pendingError = message;
      return reconnecting(message, state);
    }
    case 'turn.failed': {
      state.turnEnded = true;
      const message = str(obj(line.error)?.message) ?? state.pendingError ?? 'the turn failed';
      state.pendingError = null;
      return [failure(message, now)];
    }
    default:
      return [];
  }
}

/** Events owed when the output ends: an `error` line that no turn.completed/turn.failed followed. */
export function finishCodex(state: CodexTranslatorState, now?: Date): AgentEvent[] {
  if (state.turnEnded || state.pendingError === null) return [];
  const message = state.pendingError;
  state.pendingError = null;
  return [failure(message, now)];
}

/** `Reconnecting... 2/5 (unexpected status 401 Unauthorized: …)`: codex retries the request by itself. */
const RECONNECTING = /^Reconnecting\.\.\.\s*(\d+)\/(\d+)\s*\(([\s\S]*)\)\s*$/;

function retryEvent(attempt: number, max: number, why: string, waitSeconds: number | null): AgentEvent {
  const status = statusInText(why);
  const { kind } = classifyFailure({ message: why, status });
  const wait =
    waitSeconds === null ? '' : ` in ${waitSeconds < 10 ? waitSeconds.toFixed(1) : Math.round(waitSeconds)} s`;
  const message = `${why}; codex retries (${attempt}/${max})${wait}`;
  return { type: 'retry', attempt, maxAttempts: max, status, waitSeconds, kind, message };
}

/** The JSON stream's retry notice; it does not say how long codex waits (its stderr does, see below). */
function reconnecting(message: string, state: CodexTranslatorState): AgentEvent[] {
  const m = RECONNECTING.exec(message);
  if (!m) return [];
  const attempt = Number(m[1]);
  const already = state.retryOnStderr === attempt;
  state.retryOnStderr = null;
  return already ? [] : [retryEvent(attempt, Number(m[2]), m[3] ?? '', null)];
}

/**
 * With `RUST_LOG` naming `codex_core::responses_retry=warn` codex logs each retry on stderr with its wait
 * (0.169.0; a retry-after header is honoured whatever its length):
 * `<ts>  WARN codex_core::responses_retry: stream disconnected - retrying sampling request (1/5 in 119.999424366s)...
 * turn_id=… retries=1 max_retries=5 sampling_error=exceeded retry limit, last status: 429 Too Many Requests, request id: …`
 */
const STDERR_RETRY =
  /retrying [a-z ]*\((\d+)\/(\d+) in (\d+(?:\.\d+)?)(ns|µs|us|ms|s)\)[\s\S]*?(?:sampling_error|error)=([\s\S]*)$/;
/** Rust's Duration as Debug prints it: `206ms`, `1.67s`, `119.999470494s`. */
const PER_SECOND: Record<string, number> = { ns: 1e9, µs: 1e6, us: 1e6, ms: 1e3, s: 1 };
/** Colour codes, in case codex colours its log (it does not on a pipe with NO_COLOR). */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, 'g');

/** Events for one stderr line of codex: its retry log lines, nothing else. */
export function translateCodexStderr(line: string, state: CodexTranslatorState): AgentEvent[] {
  const m = STDERR_RETRY.exec(line.replace(ANSI, ''));
  if (!m) return [];
  const attempt = Number(m[1]);
  state.retryOnStderr = attempt;
  const waitSeconds = Number(m[3]) / (PER_SECOND[m[4] ?? 's'] ?? 1);
  return [retryEvent(attempt, Number(m[2]), (m[5] ?? '').trim(), waitSeconds)];
}
