// A headless run parked at a usage limit says so once: an NDJSON `waiting` event with the wake-up time, or one text
// line; it is not a `needs_human` (nobody has to answer).
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Awaiting } from '../../../src/core/types.js';
import { createPrinter } from '../../../src/modes/printer.js';

const PARKED: Extract<Awaiting, { kind: 'usage_limit' }> = {
  kind: 'usage_limit',
  role: 'reviewer',
  message: 'usage limit reached (the limit resets at 2026-11-26T14:05:00.000Z)',
  action: { kind: 'review' },
  resetAt: '2026-11-26T14:05:00.000Z',
  until: '2026-11-26T14:05:30.000Z',
};

function printed(json: boolean): string {
  const out = new PassThrough();
  let text = '';
  out.on('data', (b: Buffer) => (text += b.toString()));
  createPrinter({ json, out, err: new PassThrough() }).waiting(PARKED);
  return text;
}

describe('a parked run', () => {
  it('--json: one waiting event with the reason, the wake-up and reset times and the round that runs again', () => {
    const lines = printed(true).trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      event: 'waiting',
      reason: 'usage_limit',
      until: '2026-11-26T14:05:30.000Z',
      reset_at: '2026-11-26T14:05:00.000Z',
      role: 'reviewer',
      action: 'review',
    });
  });

  it('text: one line naming the wake-up time and the round', () => {
    const lines = printed(false).trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[waiting\] the reviewer hit a usage limit; waiting until 2026-11-26T14:05:30.000Z/);
    expect(lines[0]).toContain('the review round runs again');
  });
});
