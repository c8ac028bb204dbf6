// The Log tab's events: log.md's entries and the tail of debug.log, parsed into one list (time, who, kind, a
// one-line summary, the full event for the expanded view) instead of raw JSON cut at the screen's edge. Pure.

export interface LogEvent {
  /** Stable while the event is in the list (its raw text and place among equal ones): selection and expansion. */
  key: string;
  /** ISO time as written (UTC), '' when the line had none. */
  at: string;
  /** Where it came from: planner, reviewer, engine, a CLI's stderr, log.md … */
  who: string;
  kind: string;
  summary: string;
  /** The whole event, pretty-printed (prettyEvent; log.md's bullet lines). */
  detail: string;
}

/** A debug.log line: `<ISO> [source] text` (debug-log.ts writes every line with its head). */
const DEBUG_LINE = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z) \[([^\]]*)\] ?(.*)$/;
/** A log.md entry's heading: `## <ISO> — title` (log-file.ts); a heading without a time is an entry too. */
const LOG_HEADING = /^## (?:(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z) — )?(.*)$/;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));
const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** What an agent event says, on one line (the event types of core/types.ts AgentEvent; others by their fields). */
function agentSummary(e: Json): string {
  switch (e.type) {
    case 'text':
    case 'reasoning':
    case 'question':
      return text(e.text);
    case 'tool_call':
      return `${text(e.name)} ${e.input === undefined ? '' : JSON.stringify(e.input)}`;
    case 'tool_result':
      return `${e.isError === true ? 'error: ' : ''}${text(e.output)}`;
    case 'command': {
      const exit = typeof e.exitCode === 'number' ? ` (exit ${e.exitCode})` : '';
      return `${text(e.status)}${exit}: $ ${text(e.command)}`;
    }
    case 'file_change':
      return `${text(e.kind)} ${text(e.path)}`;
    case 'usage':
      return `${text(e.inputTokens)} in · ${text(e.outputTokens)} out${typeof e.costUsd === 'number' ? ` · $${e.costUsd.toFixed(4)}` : ''}${typeof e.durationMs === 'number' ? ` · ${(e.durationMs / 1000).toFixed(1)} s` : ''}`;
    case 'error':
      return `${text(e.kind)}: ${text(e.message)}`;
    case 'retry':
      return `attempt ${text(e.attempt)}${e.maxAttempts ? `/${text(e.maxAttempts)}` : ''}: ${text(e.message)}`;
    case 'session':
      return `session ${text(e.sessionId)}`;
    case 'done':
      return text(e.text) || 'done';
    default: {
      // Some other JSON (a CLI's own event): its type and the rest, compact.
      const { type: _type, ...rest } = e;
      return JSON.stringify(rest);
    }
  }
}

/**
 * An event's fields one per line (`key: value`), nested values as indented JSON, and a text with line breaks (an
 * agent's message, a command's output) as its own indented lines: read as written, not as one "\n"-studded string.
 */
export function prettyEvent(e: Json): string {
  const out: string[] = [];
  for (const [k, v] of Object.entries(e)) {
    if (typeof v === 'string' && v.includes('\n')) out.push(`${k}:`, ...v.split('\n').map((l) => `  ${l}`));
    else if (typeof v === 'string') out.push(`${k}: ${v}`);
    else out.push(`${k}: ${JSON.stringify(v, null, 2) ?? String(v)}`);
  }
  return out.join('\n');
}

/** One debug.log line as an event; a line without the head (a cut first line) is kept as plain text. */
export function debugEvent(line: string, key: string): LogEvent {
  const m = DEBUG_LINE.exec(line);
  if (!m) return { key, at: '', who: '', kind: 'text', summary: oneLine(line), detail: line };
  const [, at = '', who = '', rest = ''] = m;
  if (rest.startsWith('{')) {
    try {
      const json: unknown = JSON.parse(rest);
      if (isObject(json)) {
        const kind = typeof json.type === 'string' ? json.type : 'json';
        return { key, at, who, kind, summary: oneLine(agentSummary(json)), detail: prettyEvent(json) };
      }
    } catch {
      // Not JSON after all (a cut line): shown as text below.
    }
  }
  const kind = who.endsWith(' stderr') ? 'stderr' : 'text';
  return { key, at, who: who.replace(/ stderr$/, ''), kind, summary: oneLine(rest), detail: rest };
}

/** log.md's entries: each heading with its bullet lines as the detail. */
export function logMdEvents(log: string): LogEvent[] {
  const out: LogEvent[] = [];
  let current: { at: string; title: string; body: string[] } | null = null;
  const flush = (): void => {
    if (!current) return;
    const body = current.body.join('\n').trim();
    out.push({
      key: `log.md ${out.length} ${current.at}`,
      at: current.at,
      who: 'log.md',
      kind: 'entry',
      summary: oneLine(current.title),
      detail: body ? `${current.title}\n\n${body}` : current.title,
    });
  };
  for (const line of log.split(/\r?\n/)) {
    const m = LOG_HEADING.exec(line);
    if (m) {
      flush();
      current = { at: m[1] ?? '', title: m[2] ?? '', body: [] };
    } else if (current) current.body.push(line);
  }
  flush();
  return out;
}

/** log.md's entries and debug.log's lines, oldest first (a line without a time stays after the one before it). */
export function logEvents(log: string | null, debug: string | null): LogEvent[] {
  const entries = log ? logMdEvents(log) : [];
  const seen = new Map<string, number>();
  const lines = (debug ?? '')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      // Two identical lines get different keys: the nth of its text.
      const n = (seen.get(l) ?? 0) + 1;
      seen.set(l, n);
      return debugEvent(l, `${n} ${l}`);
    });
  // A merge of two time-ordered lists; ties keep log.md's entry first.
  const out: LogEvent[] = [];
  let i = 0;
  let j = 0;
  while (i < entries.length || j < lines.length) {
    const a = entries[i];
    const b = lines[j];
    if (a && (!b || (b.at !== '' && a.at <= b.at))) {
      out.push(a);
      i++;
    } else if (b) {
      out.push(b);
      j++;
    }
  }
  return out;
}

/** `HH:MM:SS` of an ISO time (UTC, as the files have it), or blanks. */
export function clock(at: string): string {
  return at.length >= 19 ? at.slice(11, 19) : '        ';
}
