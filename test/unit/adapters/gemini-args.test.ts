// gemini's command line per turn, what counts as a command that ran, and when a resumed session is gone.
import { describe, expect, it } from 'vitest';
import { buildGeminiArgs, geminiCommandThatRan, geminiSessionLost } from '../../../src/adapters/gemini/gemini-agent.js';

describe('gemini arguments', () => {
  it('a read-only turn runs in the default approval mode (no write or shell tools headless), a write turn in yolo', () => {
    expect(buildGeminiArgs({ access: 'read-only' }, null)).toEqual([
      '-p',
      '',
      '--output-format',
      'stream-json',
      '--skip-trust',
      '--approval-mode',
      'default',
    ]);
    const write = buildGeminiArgs({ access: 'workspace-write' }, null);
    expect(write.slice(write.indexOf('--approval-mode'), write.indexOf('--approval-mode') + 2)).toEqual([
      '--approval-mode',
      'yolo',
    ]);
  });

  it('resumes a session by its id and passes the role model with -m', () => {
    const args = buildGeminiArgs({ access: 'read-only' }, 'abc-123', { model: 'gemini-2.5-pro', effort: '' });
    expect(args.slice(-4)).toEqual(['-m', 'gemini-2.5-pro', '--resume', 'abc-123']);
  });

  it('a command ran once gemini reports its result, not when it announces the call (before its hook runs)', () => {
    expect(geminiCommandThatRan({ type: 'command', command: 'ls', status: 'started' })).toBeNull();
    expect(geminiCommandThatRan({ type: 'command', command: 'ls', status: 'completed' })).toBe('ls');
    expect(geminiCommandThatRan({ type: 'command', command: 'ls', status: 'failed' })).toBe('ls');
  });

  it("an unknown session is recognised from gemini's stderr", () => {
    expect(
      geminiSessionLost('Error resuming session: Invalid session identifier "1111".\n  Searched for sessions in /x'),
    ).toBe(true);
    expect(geminiSessionLost('some other failure')).toBe(false);
  });
});
