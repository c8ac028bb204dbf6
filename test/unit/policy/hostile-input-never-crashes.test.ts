import { beforeAll, describe, expect, it } from 'vitest';
import { checkCommand, initPolicy } from '../../helpers/policy.js';
import { DEFAULT_RULES } from './default-rules.js';

beforeAll(() => initPolicy());

describe('hostile or odd input gets a decision, never an exception', () => {
  it('thousands of nested $( still find the rm -rf inside', () => {
    const nested = `echo ${'$('.repeat(2000)}rm -rf x${')'.repeat(2000)}`;
    expect(checkCommand(nested, DEFAULT_RULES)).toMatchObject({ decision: 'block', rule: 'rm -rf' });
  });

  it('a long chain of wrappers is held for a person', () => {
    expect(checkCommand(`${'nice '.repeat(200)}rm -rf x`, DEFAULT_RULES)).toMatchObject({
      decision: 'confirm',
      rule: 'unparseable',
    });
  });

  it('bash -c nested past the limit is held for a person', () => {
    let cmd = 'ls';
    for (let i = 0; i < 12; i++) cmd = `bash -c ${JSON.stringify(cmd)}`;
    expect(checkCommand(cmd, DEFAULT_RULES)).toMatchObject({ decision: 'confirm', rule: 'unparseable' });
  });

  it.each(["echo $'\\UFFFFFFFF'", '\u0000', 'echo "\u00e9\u{1F600}" && rm -rf x', 'x'.repeat(100_000), ')))', 'fi'])(
    '%j',
    (command) => {
      expect(() => checkCommand(command, DEFAULT_RULES)).not.toThrow();
    },
  );

  it('offsets stay right after non-ASCII text', () => {
    expect(checkCommand('echo "\u00e9\u{1F600}" && rm -rf x', DEFAULT_RULES).matched).toBe('rm -rf x');
  });
});
