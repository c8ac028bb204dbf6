import { beforeAll, describe, expect, it } from 'vitest';
import { checkCommand, initPolicy } from '../../helpers/policy.js';
import { DANGEROUS_GROUPS, DESTRUCTIVE_GROUPS } from './corpus.js';
import { DEFAULT_RULES } from './default-rules.js';

beforeAll(() => initPolicy());

describe('dangerous commands are blocked or held for a person under the default config', () => {
  it('the corpus has at least 150 destructive commands, each listed once', () => {
    const destructive = Object.values(DESTRUCTIVE_GROUPS).flat();
    expect(destructive.length).toBeGreaterThanOrEqual(150);
    expect(new Set(destructive.map((d) => d.command)).size).toBe(destructive.length);
  });

  for (const [group, cases] of Object.entries(DANGEROUS_GROUPS)) {
    describe(group, () => {
      it.each(cases)('$command → $decision by "$rule"', ({ command, decision, rule, matched }) => {
        const result = checkCommand(command, DEFAULT_RULES);
        expect({ decision: result.decision, rule: result.rule }).toEqual({ decision, rule });
        if (matched !== undefined) expect(result.matched).toBe(matched);
        expect(result.reason).not.toBe('');
        expect(result.reason).not.toContain('\n');
      });
    });
  }
});
