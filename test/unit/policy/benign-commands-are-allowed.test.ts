import { beforeAll, describe, expect, it } from 'vitest';
import { checkCommand, initPolicy } from '../../helpers/policy.js';
import { BENIGN } from './corpus.js';
import { DEFAULT_RULES } from './default-rules.js';

beforeAll(() => initPolicy());

describe('everyday commands are allowed under the default config', () => {
  it('the corpus has at least 40 commands', () => {
    expect(BENIGN.length).toBeGreaterThanOrEqual(40);
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
