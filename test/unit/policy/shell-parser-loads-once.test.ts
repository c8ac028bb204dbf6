import { describe, expect, it } from 'vitest';
import { loadShellParser } from '../../../src/adapters/shell-parser/syntax.js';

describe('the shell parser loads once, asynchronously', () => {
  it('concurrent loads share one parser, which then parses synchronously', async () => {
    const [a, b] = await Promise.all([loadShellParser(), loadShellParser()]);
    expect(a).toBe(b);
    expect(a('ls -l > out').parts.map((p) => p.kind)).toEqual(['command', 'write']);
  });
});
