// How an agent's event reads as a conversation entry: its one-line summary and its expandable detail.
import type { AgentEvent, Role } from '../core/types.js';
import type { NewEntry } from './view-model.js';

export function oneLine(text: string, max = 160): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}

function briefInput(input: unknown): string {
  if (input === undefined || input === null) return '';
  if (typeof input === 'string') return oneLine(input, 80);
  try {
    return oneLine(JSON.stringify(input), 80);
  } catch {
    return '';
  }
}

function prettyInput(input: unknown): string | null {
  if (input === undefined || input === null) return null;
  if (typeof input === 'string') return input;
  try {
    return JSON.stringify(input, null, 2);
  } catch {
    return String(input);
  }
}

export function joinDetail(a: string | null, b: string | null | undefined): string | null {
  if (!b) return a;
  return a ? `${a}\n── output ──\n${b}` : b;
}

/**
 * The entry an agent event adds when it only adds one (null: it adds nothing); undefined when it may change an
 * earlier entry (a tool result, a finished command), which needs the full reducer.
 */
export function appendedEntry(role: Role, ev: AgentEvent): NewEntry | null | undefined {
  switch (ev.type) {
    case 'text': {
      const text = ev.text.trimEnd();
      return text ? { who: role, kind: 'message', text, detail: null } : null;
    }
    case 'reasoning':
      return { who: role, kind: 'reasoning', text: `thinking: ${oneLine(ev.text)}`, detail: ev.text };
    case 'tool_call': {
      const brief = briefInput(ev.input);
      return {
        who: role,
        kind: 'tool',
        text: `${ev.name}${brief ? ` ${brief}` : ''}`,
        detail: prettyInput(ev.input),
        ref: ev.id,
        status: 'running',
      };
    }
    case 'command':
      return ev.status === 'started'
        ? {
            who: role,
            kind: 'command',
            text: `$ ${oneLine(ev.command, 140)}`,
            detail: null,
            ref: ev.id ?? ev.command,
            status: 'running',
          }
        : undefined;
    case 'file_change':
      return { who: role, kind: 'file', text: `${ev.kind} ${ev.path}`, detail: null };
    case 'question':
      return { who: role, kind: 'question', text: ev.text, detail: null, tone: 'warn' };
    case 'error':
      return { who: role, kind: 'error', text: `${ev.kind}: ${ev.message}`, detail: null, tone: 'error' };
    case 'retry':
      return { who: role, kind: 'error', text: `retry: ${ev.message}`, detail: null, tone: 'warn' };
    case 'session':
    case 'usage':
    case 'done':
      return null;
    case 'tool_result':
      return undefined;
  }
}
