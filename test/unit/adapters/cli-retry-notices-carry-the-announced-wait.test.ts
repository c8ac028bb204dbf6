// Both CLIs retry failed API requests by themselves; the translators turn each retry they announce into a `retry`
// event carrying the wait (replayed from recorded transcripts, see fixtures/README.md).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { newClaudeState, translateClaudeLine } from '../../../src/adapters/claude/translate.js';
import {
  finishCodex,
  newCodexState,
  translateCodexLine,
  translateCodexStderr,
} from '../../../src/adapters/codex/translate.js';
import type { AgentEvent } from '../../../src/core/types.js';
import { replay, sampleLines } from './sample-lines.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const stderrLines = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8').split('\n').filter(Boolean);
const retries = (events: AgentEvent[]) => events.filter((e) => e.type === 'retry');

describe('claude: system/api_retry lines', () => {
  it('a 429 with retry-after 40: each retry announces 40 s and counts as a usage limit', () => {
    const events = replay('claude-429-retry-after-40.stream.jsonl', newClaudeState(), translateClaudeLine);
    expect(retries(events)).toEqual(
      [1, 2, 3].map((attempt) => ({
        type: 'retry',
        attempt,
        maxAttempts: 10,
        status: 429,
        waitSeconds: 40,
        kind: 'usage_limit',
        message: `API error 429 (rate_limit); claude retries (${attempt}/10) in 40.0 s`,
      })),
    );
    expect(events.some((e) => e.type === 'error' || e.type === 'done')).toBe(false);
  });

  it('a 429 with retry-after over 60 s is not retried by claude: the result is a usage limit at once', () => {
    const events = replay('claude-429-retry-after-61.stream.jsonl', newClaudeState(), translateClaudeLine);
    expect(retries(events)).toEqual([]);
    expect(events.at(-1)).toEqual({
      type: 'error',
      kind: 'usage_limit',
      message: 'API Error: Request rejected (429) · scripted rate limit',
    });
  });

  it('a 401 retry is an auth notice', () => {
    const line = {
      type: 'system',
      subtype: 'api_retry',
      attempt: 1,
      max_retries: 10,
      retry_delay_ms: 623.6876109756142,
      error_status: 401,
      error: 'authentication_failed',
      session_id: 's',
    };
    expect(translateClaudeLine(line, newClaudeState())).toEqual([
      expect.objectContaining({ type: 'retry', status: 401, kind: 'auth', waitSeconds: 0.6236876109756142 }),
    ]);
  });
});

describe('codex: "Reconnecting..." lines and the stderr retry log', () => {
  it('the JSON stream alone: a retry notice per reconnect, wait unknown', () => {
    const events = replay('codex-429-retry-after-40.exec.jsonl', newCodexState(), translateCodexLine);
    expect(retries(events).map((e) => [e.attempt, e.maxAttempts, e.status, e.waitSeconds, e.kind])).toEqual([
      [1, 5, 429, null, 'usage_limit'],
      [2, 5, 429, null, 'usage_limit'],
      [3, 5, 429, null, 'usage_limit'],
    ]);
  });

  it('the stderr WARN line gives the wait; its JSON line then adds no second notice', () => {
    const state = newCodexState();
    const fromStderr = stderrLines('codex-429-retry-after-120.stderr.txt').flatMap((l) =>
      translateCodexStderr(l, state),
    );
    expect(fromStderr).toEqual([
      {
        type: 'retry',
        attempt: 1,
        maxAttempts: 5,
        status: 429,
        waitSeconds: 119.999470494,
        kind: 'usage_limit',
        message:
          'exceeded retry limit, last status: 429 Too Many Requests, request id: req_fe53a830c85542bdbd521; codex retries (1/5) in 120 s',
      },
    ]);
    const fromJson = sampleLines('codex-429-retry-after-120.exec.jsonl').flatMap((l) => translateCodexLine(l, state));
    expect(retries(fromJson)).toEqual([]);
  });

  it('a 401: every reconnect is an auth notice; the stderr line has the short backoff', () => {
    const state = newCodexState();
    const events = replay('codex-401.exec.jsonl', state, translateCodexLine);
    expect(retries(events)).toHaveLength(5);
    expect(retries(events).every((e) => e.kind === 'auth' && e.status === 401)).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'error', kind: 'auth' });
    expect(finishCodex(state)).toEqual([]);
    const stderr = stderrLines('codex-401.stderr.txt').flatMap((l) => translateCodexStderr(l, newCodexState()));
    expect(stderr).toEqual([expect.objectContaining({ attempt: 1, status: 401, kind: 'auth', waitSeconds: 0.206 })]);
  });

  it('other stderr lines and colour codes: only retry log lines count', () => {
    const state = newCodexState();
    expect(translateCodexStderr('Reading additional input from stdin...', state)).toEqual([]);
    expect(
      translateCodexStderr(
        '\u001b[2m2026-11-26T06:21:32Z\u001b[0m \u001b[33m WARN\u001b[0m codex_core::responses_retry: stream disconnected - retrying sampling request (2/5 in 1.67s)... retries=2 max_retries=5 sampling_error=stream disconnected before completion',
        state,
      ),
    ).toEqual([expect.objectContaining({ attempt: 2, waitSeconds: 1.67, status: null, kind: 'infra' })]);
  });
});
