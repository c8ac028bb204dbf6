import { describe, expect, it } from 'vitest';
import { HeadTailBuffer, truncateMiddle } from '../../../src/adapters/truncate.js';

describe('truncateMiddle', () => {
  it('leaves text that fits alone', () => {
    expect(truncateMiddle('short', 10)).toBe('short');
  });

  it('keeps head and tail with a marker, within maxBytes', () => {
    const text = `HEAD${'x'.repeat(10_000)}TAIL`;
    const out = truncateMiddle(text, 200);
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(200);
    expect(out.startsWith('HEADxx')).toBe(true);
    expect(out.endsWith('xxTAIL')).toBe(true);
    expect(out).toMatch(/\n…\[\d+ bytes truncated\]…\n/);
    const dropped = Number(/\[(\d+) bytes/.exec(out)?.[1]);
    expect(dropped + Buffer.byteLength(out.replace(/\n…\[\d+ bytes truncated\]…\n/, ''))).toBe(Buffer.byteLength(text));
  });

  it('never splits a multi-byte character', () => {
    const out = truncateMiddle('é'.repeat(1_000) + '請'.repeat(1_000), 101);
    expect(out).not.toContain('\uFFFD');
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(101);
  });
});

describe('HeadTailBuffer', () => {
  it('keeps everything while it fits', () => {
    const b = new HeadTailBuffer(100);
    b.append('one\n');
    b.append('two\n');
    expect(b.toString()).toBe('one\ntwo\n');
    expect(b.truncated).toBe(false);
  });

  it('keeps the first and the latest bytes of a long stream, bounded', () => {
    const b = new HeadTailBuffer(100);
    for (let i = 0; i < 1_000; i++) b.append(`line ${i}\n`);
    const out = b.toString();
    expect(b.truncated).toBe(true);
    expect(out.startsWith('line 0\nline 1\n')).toBe(true);
    expect(out.endsWith('line 999\n')).toBe(true);
    expect(Buffer.byteLength(out.replace(/\n…\[\d+ bytes truncated\]…\n/, ''))).toBeLessThanOrEqual(100);
  });
});
