import { describe, expect, it } from 'vitest';
import { checkCommand, initPolicy } from '../../../src/engine/policy/index.js';

// Runs in its own module graph (vitest isolates test files), so the parser is not loaded yet.
describe('the parser loads once, asynchronously', () => {
  it('checkCommand before initPolicy throws an error that says what to call', async () => {
    expect(() => checkCommand('ls', { blocked: [], confirm: [] })).toThrow('call `await initPolicy()` before checking commands');
    await Promise.all([initPolicy(), initPolicy()]);
    expect(checkCommand('ls', { blocked: [], confirm: [] }).decision).toBe('allow');
  });
});
