import { describe, expect, it } from 'vitest';
import { classifyFailure, parseResetTime } from '../../../src/adapters/failure-kind.js';

const kind = (message: string, status?: number): string => classifyFailure({ message, status }).kind;

describe('classifyFailure', () => {
  it('auth: 401/403 and authentication messages', () => {
    expect(kind('anything', 401)).toBe('auth');
    expect(kind('anything', 403)).toBe('auth');
    expect(kind('unexpected status 401 Unauthorized: Missing bearer')).toBe('auth');
    expect(kind('{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}')).toBe('auth');
    expect(kind('Invalid API key · Please run /login')).toBe('auth');
    expect(kind('OAuth token has expired')).toBe('auth');
  });

  it('usage_limit: 429 and rate / usage limit messages', () => {
    expect(kind('slow down', 429)).toBe('usage_limit');
    expect(kind('exceeded retry limit, last status: 429 Too Many Requests')).toBe('usage_limit');
    expect(
      kind('{"error":{"type":"rate_limit_error","message":"Number of requests has exceeded your rate limit"}}'),
    ).toBe('usage_limit');
    expect(kind("You've hit your usage limit. Upgrade to Pro or try again in 3 days")).toBe('usage_limit');
    expect(kind('Claude AI usage limit reached|1760000000')).toBe('usage_limit');
    expect(kind('You exceeded your current quota (insufficient_quota)')).toBe('usage_limit');
  });

  it('infra: 5xx, overloaded, network and stream failures', () => {
    expect(kind('API Error: 500 internal', 500)).toBe('infra');
    expect(kind('API Error: 529 {"type":"overloaded_error"}')).toBe('infra');
    expect(kind('unexpected status 502 Bad Gateway')).toBe('infra');
    expect(kind('stream disconnected before completion: mock stream failure')).toBe('infra');
    expect(kind('error sending request: connection refused (ECONNREFUSED)')).toBe('infra');
    expect(kind('request timed out')).toBe('infra');
    expect(kind('fetch failed')).toBe('infra');
    // codex 0.169.0 on an HTTP 500: no status, only this
    expect(kind('We’re currently experiencing high demand, which may cause temporary errors.')).toBe('infra');
  });

  it('agent_error: everything else, including other 4xx', () => {
    expect(kind('{"error":{"message":"mock invalid request","type":"invalid_request_error","code":null}}')).toBe(
      'agent_error',
    );
    expect(kind('API Error: 400 mock invalid request', 400)).toBe('agent_error');
    expect(kind('prompt is too long')).toBe('agent_error');
    expect(kind('')).toBe('agent_error');
  });

  it('an explicit status wins over the wording', () => {
    expect(kind('network rate limit', 401)).toBe('auth');
    expect(kind('Unauthorized', 500)).toBe('infra');
  });
});

describe('reset times of usage limits', () => {
  const now = new Date('2026-03-01T10:00:00Z');

  it('epoch seconds after a pipe (claude) and resets_at / resets_in_seconds in a JSON body (codex)', () => {
    expect(parseResetTime('Claude AI usage limit reached|1760000000', now)).toBe('2025-10-09T08:53:20.000Z');
    expect(parseResetTime('{"error":{"type":"usage_limit_reached","resets_at":1760000000}}', now)).toBe(
      '2025-10-09T08:53:20.000Z',
    );
    expect(parseResetTime('{"error":{"type":"usage_limit_reached","resets_in_seconds":90}}', now)).toBe(
      '2026-03-01T10:01:30.000Z',
    );
  });

  it('relative durations', () => {
    expect(parseResetTime('try again in 2 days 3 hours 5 minutes.', now)).toBe('2026-03-03T13:05:00.000Z');
    expect(parseResetTime('Please try again in 45 seconds', now)).toBe('2026-03-01T10:00:45.000Z');
  });

  it('an ISO timestamp', () => {
    expect(parseResetTime('limit resets at 2026-03-02T00:00:00Z', now)).toBe('2026-03-02T00:00:00.000Z');
  });

  it('a clock time means its next occurrence (local time)', () => {
    const local = new Date(2026, 2, 1, 16, 30); // 16:30 local
    expect(parseResetTime('5-hour limit reached ∙ resets 3pm', local)).toBe(new Date(2026, 2, 2, 15, 0).toISOString());
    expect(parseResetTime("You've hit your limit · try again at 5:15 PM", local)).toBe(
      new Date(2026, 2, 1, 17, 15).toISOString(),
    );
  });

  it('none given → undefined; classifyFailure then leaves resetAt out', () => {
    expect(parseResetTime('rate limited', now)).toBeUndefined();
    expect(classifyFailure({ message: 'rate limited', status: 429, now })).toEqual({
      kind: 'usage_limit',
      message: 'rate limited',
    });
    expect(classifyFailure({ message: 'usage limit; try again in 1 hour', now })).toEqual({
      kind: 'usage_limit',
      message: 'usage limit; try again in 1 hour',
      resetAt: '2026-03-01T11:00:00.000Z',
    });
  });
});
