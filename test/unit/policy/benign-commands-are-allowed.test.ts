import { beforeAll, describe, expect, it } from 'vitest';
import { checkCommand, initPolicy } from '../../helpers/policy.js';
import { BENIGN, BENIGN_HELD } from './corpus-benign.js';
import { DEFAULT_RULES } from './default-rules.js';

beforeAll(() => initPolicy());

describe('everyday commands are allowed under the default config', () => {
  it('the corpus has at least 80 benign look-alikes', () => {
    expect(BENIGN.length + BENIGN_HELD.length).toBeGreaterThanOrEqual(80);
  });

  it.each(BENIGN.map((command) => ({ command })))('$command', ({ command }) => {
    expect(checkCommand(command, DEFAULT_RULES)).toEqual({
      decision: 'allow',
      rule: null,
      matched: null,
      reason: command === '' ? 'empty command' : 'no rule matched',
    });
  });
});

describe('look-alikes that a default rule holds are only held by that rule, never blocked', () => {
  it.each(BENIGN_HELD)('$command → confirm by "$rule"', ({ command, rule }) => {
    expect(checkCommand(command, DEFAULT_RULES)).toMatchObject({ decision: 'confirm', rule });
  });
});
