// Pure translation of `gemini -p … --output-format stream-json` lines into AgentEvents (shapes measured on
// @google/gemini-cli 0.61.0, see docs/agents/gemini.md):
//   {"type":"init","session_id","model"}
//   {"type":"message","role":"user"|"assistant","content","delta"?:true}   assistant text comes in deltas
//   {"type":"tool_use","tool_name","tool_id","parameters"}
//   {"type":"tool_result","tool_id","status":"success"|"error","output"?,"error"?:{type,message}}
//   {"type":"result","status":"success"|"error","error"?:{type,message},"stats":{input_tokens,output_tokens,cached,duration_ms,…}}
// Shell calls (run_shell_command) become `command` events, successful write_file/replace also `file_change`.
import type { AgentEvent } from '../../core/types.js';
import { classifyFailure } from '../failure-kind.js';
import { num, obj, str, type Json } from '../json-fields.js';
import { TOOL_OUTPUT_MAX_BYTES, truncateMiddle } from '../truncate.js';
import { commandEnded, errorEvent, toolResultEvents } from '../agent-events.js';

/** The CLI's shell tool; the name its BeforeTool hook sees too. */
export const GEMINI_SHELL_TOOL = 'run_shell_command';
const FILE_TOOLS = new Set(['write_file', 'replace']);

export interface GeminiTranslatorState {
  sessionId: string | null;
  /** Assistant text deltas of the message being streamed; emitted whole when it ends. */
  pending: string;
  /** The last whole assistant message: the turn's answer when the run ends. */
  lastMessage: string;
  toolUses: Map<string, { name: string; input: Json }>;
}

export function newGeminiState(): GeminiTranslatorState {
  return { sessionId: null, pending: '', lastMessage: '', toolUses: new Map() };
}

/** The streamed message as one text event (none when nothing was streamed). */
function flush(state: GeminiTranslatorState): AgentEvent[] {
  if (state.pending === '') return [];
  const text = state.pending;
  state.pending = '';
  state.lastMessage = text;
  return [{ type: 'text', text }];
}

function toolUse(line: Json, state: GeminiTranslatorState): AgentEvent[] {
  const events = flush(state);
  // A message before a tool call is not the answer; the answer is what the model says after its last call.
  state.lastMessage = '';
  const id = str(line.tool_id) ?? '';
  const name = str(line.tool_name) ?? '?';
  const input = obj(line.parameters) ?? {};
  state.toolUses.set(id, { name, input });
  if (name === GEMINI_SHELL_TOOL)
    events.push({ type: 'command', id, command: str(input.command) ?? '', status: 'started' });
  else events.push({ type: 'tool_call', id, name, input });
  return events;
}

function toolResult(line: Json, state: GeminiTranslatorState): AgentEvent[] {
  const id = str(line.tool_id) ?? '';
  const isError = line.status !== 'success';
  const raw = str(line.output) ?? str(obj(line.error)?.message) ?? '';
  const output = truncateMiddle(raw, TOOL_OUTPUT_MAX_BYTES);
  const use = state.toolUses.get(id);
  state.toolUses.delete(id);
  // A shell call a BeforeTool hook blocked never ran: it is a failed tool call, not a command (the audit of commands
  // that ran without the hook's approval looks at command events).
  const blocked = obj(line.error)?.type === 'policy_violation';
  if (use?.name === GEMINI_SHELL_TOOL && !blocked) {
    // gemini 0.61 reports a command that exited non-zero as a success too, and says no exit code (measured).
    const exitCode = Number(/Exit Code: (\d+)/i.exec(output)?.[1] ?? NaN);
    return commandEnded(id, str(use.input.command) ?? '', isError, exitCode, output);
  }
  const path = use && FILE_TOOLS.has(use.name) ? str(use.input.file_path) : null;
  return toolResultEvents(id, output, isError, { path, kind: use?.name === 'write_file' ? 'add' : 'update' });
}

function usage(stats: Json): AgentEvent {
  return {
    type: 'usage',
    inputTokens: num(stats.input_tokens) ?? 0,
    outputTokens: num(stats.output_tokens) ?? 0,
    cachedTokens: num(stats.cached) ?? 0,
    durationMs: num(stats.duration_ms) ?? 0,
  };
}

function result(line: Json, state: GeminiTranslatorState, now?: Date): AgentEvent[] {
  const events = flush(state);
  const stats = obj(line.stats);
  if (stats) events.push(usage(stats));
  if (line.status !== 'success') {
    const error = obj(line.error);
    const message = str(error?.message) ?? `gemini ended with status ${str(line.status) ?? 'unknown'}`;
    events.push(errorEvent(classifyFailure({ message, now }), message));
    return events;
  }
  events.push({ type: 'done', sessionId: state.sessionId, text: state.lastMessage });
  return events;
}

/** Events for one parsed JSON line. `now` is only used to turn "try again in …" into a reset time. */
export function translateGeminiLine(line: Json, state: GeminiTranslatorState, now?: Date): AgentEvent[] {
  switch (line.type) {
    case 'init': {
      const sessionId = str(line.session_id);
      if (!sessionId) return [];
      state.sessionId = sessionId;
      return [{ type: 'session', sessionId }];
    }
    case 'message': {
      if (line.role !== 'assistant') return [];
      const content = str(line.content) ?? '';
      if (line.delta === true) {
        state.pending += content;
        return [];
      }
      state.pending += content;
      return flush(state);
    }
    case 'tool_use':
      return toolUse(line, state);
    case 'tool_result':
      return toolResult(line, state);
    case 'result':
      return result(line, state, now);
    default:
      return []; // anything newer
  }
}

/** Events owed when the output ended without a result line: the text streamed so far. */
export function finishGemini(state: GeminiTranslatorState): AgentEvent[] {
  return flush(state);
}
