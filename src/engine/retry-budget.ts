// Whether a round lets a CLI go on with a retry it announced, or stops it. Left alone, claude retries a 429 ten
// times after each retry-after (up to 60 s), and codex waits whatever retry-after says, five times: a usage limit
// would keep an unattended run waiting for many minutes before it pauses. A 401 is retried too, to no end.
import type { AgentEvent, FailureKind } from '../core/types.js';

export type RetryNotice = Extract<AgentEvent, { type: 'retry' }>;

export interface RetryStop {
  failure: FailureKind;
  message: string;
  /** A usage limit's reset: when the CLI would have tried again. */
  resetAt?: string;
}

/** `[timeouts] max_retry_wait_seconds` when the engine is not told otherwise. */
export const DEFAULT_MAX_RETRY_WAIT_SECONDS = 60;

/**
 * Why the CLI must be stopped now, or null to let it retry. Auth errors stop it at once; otherwise a wait over
 * `maxWaitSeconds`, alone or added to the waits it announced before in this round, stops it: a 429 as a
 * `usage_limit` that resets when the CLI would have tried again, anything else as `infra`.
 */
export function retryStop(ev: RetryNotice, waitedSeconds: number, maxWaitSeconds: number, now: Date): RetryStop | null {
  if (ev.kind === 'auth')
    return { failure: 'auth', message: `${ev.message}; stopped instead of retrying: check the CLI's login or API key` };
  if (ev.waitSeconds === null || waitedSeconds + ev.waitSeconds <= maxWaitSeconds) return null;
  const over = `stopped instead of waiting: over [timeouts] max_retry_wait_seconds (${maxWaitSeconds} s)`;
  if (ev.kind !== 'usage_limit') return { failure: 'infra', message: `${ev.message}; ${over}` };
  const resetAt = new Date(now.getTime() + Math.ceil(ev.waitSeconds) * 1000).toISOString();
  return { failure: 'usage_limit', message: `${ev.message}; ${over} (the limit resets at ${resetAt})`, resetAt };
}
