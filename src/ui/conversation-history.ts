// After a restart the conversation tab would start empty: the agents' events of the run being resumed are read
// back from debug.log, where the engine writes each one as `<ISO time> [planner|reviewer] <event JSON>`.
import type { AgentEvent, Role } from '../core/types.js';
import { readTail } from './read-tail.js';
import type { ViewAction } from './view-model.js';

/** How much of debug.log's end is read back (it rotates at `debug_log_max_size`, 10 MB by default). */
const MAX_LINES = 20_000;
const MAX_BYTES = 4 * 1024 * 1024;

const EVENT_LINE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z) \[(planner|reviewer)\] (\{.*\})$/;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const str = (v: unknown): boolean => typeof v === 'string';

/** The events the conversation shows, checked field by field: a damaged line is skipped, never shown half. */
function conversationEvent(json: unknown): AgentEvent | null {
  if (!isObject(json)) return null;
  const ok = ((): boolean => {
    switch (json.type) {
      case 'text':
      case 'reasoning':
      case 'question':
        return str(json.text);
      case 'tool_call':
        return str(json.name) && (json.id === undefined || str(json.id));
      case 'tool_result':
        return str(json.output) && typeof json.isError === 'boolean' && (json.id === undefined || str(json.id));
      case 'command':
        return (
          str(json.command) &&
          ['started', 'completed', 'failed'].includes(json.status as string) &&
          (json.id === undefined || str(json.id)) &&
          (json.output === undefined || str(json.output))
        );
      case 'file_change':
        return str(json.path) && ['add', 'update', 'delete'].includes(json.kind as string);
      case 'error':
      case 'retry':
        return str(json.kind) && str(json.message);
      default:
        return false; // session, usage, done: not shown in the conversation
    }
  })();
  return ok ? (json as unknown as AgentEvent) : null;
}

/** The view actions for the agent events in `text` (debug.log lines) written at or after `since` (an ISO time). */
export function historyActions(text: string, since: string): ViewAction[] {
  const actions: ViewAction[] = [];
  for (const line of text.split('\n')) {
    const m = EVENT_LINE.exec(line);
    if (!m || m[1]! < since) continue;
    let json: unknown;
    try {
      json = JSON.parse(m[3]!);
    } catch {
      continue;
    }
    const event = conversationEvent(json);
    if (event) actions.push({ type: 'agent_event', role: m[2] as Role, event });
  }
  return actions;
}

/** The conversation of the run that started at `since`, from the end of `debugLog`; empty when there is none. */
export async function conversationHistory(debugLog: string, since: string): Promise<ViewAction[]> {
  const text = await readTail(debugLog, MAX_LINES, MAX_BYTES).catch(() => null);
  return text === null ? [] : historyActions(text, since);
}
