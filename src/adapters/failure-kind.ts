// Classifies an error reported by a CLI (HTTP status and/or message) into the engine's failure kinds.
import type { FailureKind } from '../core/types.js';

export interface FailureInput {
  message: string;
  /** HTTP status when the CLI reports one separately (claude's `api_error_status`). */
  status?: number | null;
  /** For relative reset times ("try again in 2 hours"); default: the current time. */
  now?: Date;
}

export interface Failure {
  kind: Extract<FailureKind, 'auth' | 'usage_limit' | 'infra' | 'agent_error'>;
  message: string;
  /** ISO time when a usage limit resets, when the message says. */
  resetAt?: string;
}

/** Matches any of `words` as whole words; `_` counts as a separator, so `rate_limit_error` matches `rate.limit`. */
function words(...alternatives: string[]): RegExp {
  return new RegExp(`(?<![a-z0-9])(?:${alternatives.join('|')})(?![a-z0-9])`, 'i');
}

const AUTH = words(
  'unauthori[sz]ed',
  'forbidden',
  'invalid[ _-]?api[ _-]?key',
  'invalid x-api-key',
  'authentication',
  'not logged in',
  'log ?in again',
  'please run \\S*login',
  'oauth token (?:has )?expired',
  'permission_error',
);
const USAGE_LIMIT = words(
  'rate[ _-]?limit(?:ed)?',
  'usage[ _-]?limit',
  'too many requests',
  'quota',
  'insufficient_quota',
  'hit your (?:usage )?limit',
  '(?:5-hour|weekly|daily) limit',
);
const INFRA = words(
  'overloaded',
  'stream disconnected',
  'network',
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'socket hang up',
  'fetch failed',
  'connection (?:reset|refused|error|closed)',
  'timed out',
  'service unavailable',
  'bad gateway',
  'gateway timeout',
  'internal server error',
  'server error',
  'api_error',
  // codex 0.169.0's whole message for an HTTP 500 (no status in it)
  'experiencing high demand',
);
const STATUS_IN_TEXT = /\b(?:status(?: code)?|API Error|HTTP(?:\/\d(?:\.\d)?)?)\s*:?\s*([1-5]\d\d)\b/i;

/** Pulls `{"error":{"message","type","code","resets_at","resets_in_seconds"}}` out of a raw HTTP body, when it is one. */
function parseErrorBody(message: string): { text: string; resetsAt?: number; resetsInSeconds?: number } | null {
  const start = message.indexOf('{');
  if (start < 0) return null;
  try {
    const body = JSON.parse(message.slice(start)) as { error?: Record<string, unknown> } & Record<string, unknown>;
    const err = (typeof body.error === 'object' && body.error !== null ? body.error : body) as Record<string, unknown>;
    const parts = [err.message, err.type, err.code].filter((p): p is string => typeof p === 'string');
    return {
      text: `${message.slice(0, start)}${parts.join(' ')}`,
      resetsAt: typeof err.resets_at === 'number' ? err.resets_at : undefined,
      resetsInSeconds: typeof err.resets_in_seconds === 'number' ? err.resets_in_seconds : undefined,
    };
  } catch {
    return null;
  }
}

const UNIT_SECONDS: Record<string, number> = {
  day: 86_400,
  hour: 3_600,
  hr: 3_600,
  minute: 60,
  min: 60,
  second: 1,
  sec: 1,
};

/** "try again in 2 days 3 hours 5 minutes" → seconds; null when no duration is given. */
function parseDuration(text: string): number | null {
  const m = /\b(?:in|after)\s+((?:\d+\s*(?:days?|hours?|hrs?|minutes?|mins?|seconds?|secs?)[\s,and]*)+)/i.exec(text);
  if (!m?.[1]) return null;
  let total = 0;
  for (const part of m[1].matchAll(/(\d+)\s*(day|hour|hr|minute|min|second|sec)/gi)) {
    total += Number(part[1]) * (UNIT_SECONDS[(part[2] ?? '').toLowerCase()] ?? 0);
  }
  return total > 0 ? total : null;
}

/** "resets 3pm" / "try again at 3:05 PM": the next such local time after `now`. */
function parseClockTime(text: string, now: Date): Date | null {
  const m = /\b(?:resets?|try again)\s+(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*([ap]\.?m\.?)?/i.exec(text);
  if (!m) return null;
  let hours = Number(m[1]);
  const minutes = Number(m[2] ?? 0);
  const meridiem = m[3]?.toLowerCase().replace(/\./g, '');
  if (!m[2] && !meridiem) return null; // a bare number is not a time
  if (meridiem === 'pm' && hours < 12) hours += 12;
  if (meridiem === 'am' && hours === 12) hours = 0;
  if (hours > 23 || minutes > 59) return null;
  const at = new Date(now);
  at.setHours(hours, minutes, 0, 0);
  if (at.getTime() <= now.getTime()) at.setDate(at.getDate() + 1);
  return at;
}

/** The reset time a usage-limit message gives, as an ISO string. */
export function parseResetTime(message: string, now = new Date()): string | undefined {
  const body = parseErrorBody(message);
  if (body?.resetsAt) return new Date(body.resetsAt * 1000).toISOString();
  if (body?.resetsInSeconds) return new Date(now.getTime() + body.resetsInSeconds * 1000).toISOString();
  const epoch = /\|(\d{10})\b/.exec(message); // "Claude AI usage limit reached|1760000000"
  if (epoch?.[1]) return new Date(Number(epoch[1]) * 1000).toISOString();
  const iso = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})\b/.exec(message);
  if (iso && !Number.isNaN(Date.parse(iso[0]))) return new Date(iso[0]).toISOString();
  const seconds = parseDuration(message);
  if (seconds !== null) return new Date(now.getTime() + seconds * 1000).toISOString();
  return parseClockTime(message, now)?.toISOString();
}

/** The HTTP status a message names ("status: 429", "unexpected status 401", "API Error: 500"), else null. */
export function statusInText(text: string): number | null {
  const m = STATUS_IN_TEXT.exec(text);
  return m?.[1] ? Number(m[1]) : null;
}

function statusOf(input: FailureInput, text: string): number | null {
  if (typeof input.status === 'number') return input.status;
  return statusInText(text);
}

export function classifyFailure(input: FailureInput): Failure {
  const message = input.message.trim() || 'unknown error';
  const text = parseErrorBody(message)?.text ?? message;
  const status = statusOf(input, message);
  const usageLimit = (): Failure => {
    const resetAt = parseResetTime(message, input.now);
    return resetAt ? { kind: 'usage_limit', message, resetAt } : { kind: 'usage_limit', message };
  };
  if (status === 401 || status === 403) return { kind: 'auth', message };
  if (status === 429) return usageLimit();
  if (status !== null && status >= 500) return { kind: 'infra', message };
  if (AUTH.test(text)) return { kind: 'auth', message };
  if (USAGE_LIMIT.test(text)) return usageLimit();
  if (INFRA.test(text)) return { kind: 'infra', message };
  return { kind: 'agent_error', message };
}
