import { describe, expect, it } from 'vitest';
import { summarizeStepAnswer, truncateAtWord } from '../../src/core/plan-steps.js';

describe('summarizeStepAnswer', () => {
  it.each([
    ['the Summary: line', 'Did things.\nTests pass.\nSummary: add greet() with tests', 'add greet() with tests'],
    ['the last Summary: line wins', 'Summary: first\nmore\nSummary: second', 'second'],
    ['bold label', 'Done.\n**Summary:** add parser', 'add parser'],
    ['lower case label and code span', 'summary: `add parser`', 'add parser'],
    ['bullet summary', '- Summary: fix the bug', 'fix the bug'],
    ['an empty Summary: is skipped', 'Changed the parser\nSummary:   ', 'Changed the parser'],
    ['first non-empty line otherwise', '\n\n## Added the config loader\nmore text', 'Added the config loader'],
    ['fallback for an empty answer', '   \n', 'Step title'],
    ['collapses whitespace', 'Summary: add    the\tparser', 'add the parser'],
  ])('uses %s', (_name, text, expected) => {
    expect(summarizeStepAnswer(text, 'Step title')).toBe(expected);
  });

  it('cuts long summaries at a word boundary to at most 60 characters', () => {
    const s = summarizeStepAnswer(
      'Summary: add the configuration loader with validation, defaults, environment overrides and tests',
      'x',
    );
    expect(s.length).toBeLessThanOrEqual(60);
    expect(s).toBe('add the configuration loader with validation, defaults…');
  });

  it('truncates a long fallback title too', () => {
    expect(summarizeStepAnswer('', 'a'.repeat(100))).toBe(`${'a'.repeat(59)}…`);
  });

  it('truncateAtWord leaves short text alone', () => {
    expect(truncateAtWord('short')).toBe('short');
    expect(truncateAtWord('x'.repeat(60))).toBe('x'.repeat(60));
  });
});
