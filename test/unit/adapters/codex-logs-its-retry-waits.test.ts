// codex says how long it waits before a retry only in its stderr log; agent-collab turns that log line on, on top
// of whatever RUST_LOG the person set.
import { describe, expect, it } from 'vitest';
import { CODEX_RETRY_LOG, codexEnv } from '../../../src/adapters/codex/codex-agent.js';

describe('codex environment', () => {
  it('without RUST_LOG: errors as by default, plus the retry log', () => {
    expect(codexEnv({ PATH: '/bin' })).toEqual({ PATH: '/bin', RUST_LOG: `error,${CODEX_RETRY_LOG}` });
  });

  it("the person's RUST_LOG is kept; the retry log is added after it", () => {
    expect(codexEnv({ RUST_LOG: 'debug' }).RUST_LOG).toBe(`debug,${CODEX_RETRY_LOG}`);
  });
});
