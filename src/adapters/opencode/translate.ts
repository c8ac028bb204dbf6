// Pure translation of `opencode run --format json` lines into AgentEvents (shapes measured on opencode-ai 1.18.33,
// recorded in test/fixtures/opencode/; see docs/agents/opencode.md). Every line is
// `{"type", "timestamp", "sessionID", "part"|"error"}`; `type` is step_start | text | reasoning | tool_use |
// step_finish | error. opencode prints nothing when the turn ends: the process exit ends it.
import type { AgentEvent } from '../../core/types.js';
import { classifyFailure } from '../failure-kind.js';
import { num, obj, str, type Json } from '../json-fields.js';
import { TOOL_OUTPUT_MAX_BYTES, truncateMiddle } from '../truncate.js';
import { errorEvent } from '../agent-events.js';

export interface OpencodeTranslatorState {
  sessionId: string | null;
  /** The text parts of the latest message that had text: the turn's answer. */
  answerMessageId: string | null;
  answer: string[];
  /** An `error` line was seen: the turn failed, whatever text came before. */
  failed: boolean;
}

export function newOpencodeState(): OpencodeTranslatorState {
  return { sessionId: null, answerMessageId: null, answer: [], failed: false };
}

/** opencode's file tools and the change each one makes (its `edit`/`patch` tools update, `write` may add). */
const FILE_TOOLS: Record<string, 'add' | 'update'> = { write: 'add', edit: 'update', multiedit: 'update' };

function failure(message: string, status: number | null, now?: Date): AgentEvent {
  const f = classifyFailure({ message, status: status ?? undefined, now });
  return errorEvent(f, f.message);
}

/** What gate-shell/bash prints, and its exit code, when it refuses a command the plugin did not approve. */
const GATE_REFUSED_MARK = 'agent-collab-gate-refused';
const GATE_REFUSED_EXIT = 126;
export const GATE_NOT_LOADED =
  "opencode did not load agent-collab's command gate plugin, so its shell refused to run any command and agent-collab stopped the turn: run `agent-collab doctor`, and look for plugin errors in opencode's log (~/.local/share/opencode/log)";

/** A finished tool part: `bash` becomes a command, file tools a file change, the rest a tool call and its result. */
function toolPart(part: Json): AgentEvent[] {
  const state = obj(part.state);
  const status = str(state?.status);
  if (status !== 'completed' && status !== 'error') return [];
  const id = str(part.callID) ?? str(part.id) ?? undefined;
  const tool = str(part.tool) ?? '?';
  const input = obj(state?.input) ?? {};
  const output = truncateMiddle(str(state?.output) ?? str(state?.error) ?? '', TOOL_OUTPUT_MAX_BYTES);
  const exit = num(obj(state?.metadata)?.exit);
  // The gate shell refused a call the plugin never approved: opencode did not load the plugin. Nothing ran, and
  // no command can run this turn, so the turn stops with the reason.
  if (tool === 'bash' && exit === GATE_REFUSED_EXIT && output.includes(GATE_REFUSED_MARK))
    return [{ type: 'error', kind: 'agent_error', message: GATE_NOT_LOADED }];
  // A bash call that failed before running (the command gate threw in `tool.execute.before`) has no exit code.
  if (tool === 'bash' && (status === 'completed' || exit !== null)) {
    return [
      {
        type: 'command',
        id,
        command: str(input.command) ?? '',
        status: status === 'completed' && (exit === null || exit === 0) ? 'completed' : 'failed',
        exitCode: exit,
        output,
      },
    ];
  }
  const events: AgentEvent[] = [
    { type: 'tool_call', id, name: tool, input },
    { type: 'tool_result', id, output, isError: status === 'error' },
  ];
  // `write` says whether the file was there before (metadata.exists).
  const existed = obj(state?.metadata)?.exists === true;
  const kind = tool === 'write' && existed ? 'update' : FILE_TOOLS[tool];
  const file = str(input.filePath);
  if (kind !== undefined && file !== null && status === 'completed')
    events.push({ type: 'file_change', path: file, kind });
  return events;
}

function usage(part: Json): AgentEvent[] {
  const tokens = obj(part.tokens);
  if (tokens === null) return [];
  const cached = num(obj(tokens.cache)?.read);
  const cost = num(part.cost);
  return [
    {
      type: 'usage',
      inputTokens: num(tokens.input) ?? 0,
      outputTokens: (num(tokens.output) ?? 0) + (num(tokens.reasoning) ?? 0),
      ...(cached !== null && cached > 0 ? { cachedTokens: cached } : {}),
      ...(cost !== null && cost > 0 ? { costUsd: cost } : {}),
    },
  ];
}

export function translateOpencodeLine(line: Json, state: OpencodeTranslatorState, now?: Date): AgentEvent[] {
  const out: AgentEvent[] = [];
  const sessionId = str(line.sessionID);
  if (sessionId !== null && state.sessionId === null) {
    state.sessionId = sessionId;
    out.push({ type: 'session', sessionId });
  }
  const part = obj(line.part) ?? {};
  switch (line.type) {
    case 'text': {
      const text = str(part.text) ?? '';
      const messageId = str(part.messageID);
      if (messageId !== state.answerMessageId) {
        state.answerMessageId = messageId;
        state.answer = [];
      }
      state.answer.push(text);
      return [...out, { type: 'text', text }];
    }
    case 'reasoning':
      return [...out, { type: 'reasoning', text: str(part.text) ?? '' }];
    case 'tool_use': {
      const events = toolPart(part);
      // A refused call fails the turn: whatever opencode answers afterwards is not the turn's answer.
      if (events.some((e) => e.type === 'error')) state.failed = true;
      return [...out, ...events];
    }
    case 'step_finish':
      return [...out, ...usage(part)];
    case 'error': {
      state.failed = true;
      const error = obj(line.error);
      const data = obj(error?.data);
      const message = str(data?.message) ?? str(error?.name) ?? 'opencode reported an error';
      return [...out, failure(message, num(data?.statusCode), now)];
    }
    default:
      return out;
  }
}

/** When the output ends: the answer (the latest message's text), unless the turn failed or had no answer. */
export function finishOpencode(state: OpencodeTranslatorState): AgentEvent[] {
  if (state.failed) return [];
  if (state.answerMessageId === null)
    return [{ type: 'error', kind: 'agent_error', message: 'opencode ended its turn without an answer' }];
  return [{ type: 'done', sessionId: state.sessionId, text: state.answer.join('') }];
}
