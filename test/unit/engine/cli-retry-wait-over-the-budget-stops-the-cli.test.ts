import { describe, expect, it } from 'vitest';
import { retryStop, type RetryNotice } from '../../../src/engine/retry-budget.js';

const NOW = new Date('2026-11-26T06:00:00.000Z');
const notice = (over: Partial<RetryNotice>): RetryNotice => ({
  type: 'retry',
  attempt: 1,
  maxAttempts: 10,
  status: 429,
  waitSeconds: 40,
  kind: 'usage_limit',
  message: 'API error 429 (rate_limit); claude retries (1/10) in 40.0 s',
  ...over,
});

describe('a CLI retry the round lets through or stops', () => {
  it('a 429 wait within the budget goes on; over it, a usage limit resetting when the CLI would have retried', () => {
    expect(retryStop(notice({}), 0, 60, NOW)).toBeNull();
    expect(retryStop(notice({ waitSeconds: 120 }), 0, 60, NOW)).toEqual({
      failure: 'usage_limit',
      message:
        'API error 429 (rate_limit); claude retries (1/10) in 40.0 s; stopped instead of waiting: over [timeouts] max_retry_wait_seconds (60 s) (the limit resets at 2026-11-26T06:02:00.000Z)',
      resetAt: '2026-11-26T06:02:00.000Z',
    });
  });

  it('waits of one turn add up: a second 40 s retry goes over 60 s', () => {
    expect(retryStop(notice({ attempt: 2 }), 40, 60, NOW)).toMatchObject({ failure: 'usage_limit' });
  });

  it('a 401 stops at once, whatever the wait; an unknown wait never trips the budget', () => {
    expect(retryStop(notice({ status: 401, kind: 'auth', waitSeconds: 0.6 }), 0, 60, NOW)).toMatchObject({
      failure: 'auth',
    });
    expect(retryStop(notice({ waitSeconds: null }), 1000, 60, NOW)).toBeNull();
  });

  it('a 5xx backoff over the budget is a service error (agent-collab retries those itself)', () => {
    expect(retryStop(notice({ status: 529, kind: 'infra', waitSeconds: 64 }), 0, 60, NOW)).toMatchObject({
      failure: 'infra',
    });
  });
});
