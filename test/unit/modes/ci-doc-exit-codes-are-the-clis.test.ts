// docs/ci.md tells a CI job what each exit code means: its table must have exactly the CLI's codes (EXIT, and 1
// for an internal error, which cli.ts sets outside EXIT), each once, with the meaning EXIT names it by.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../src/core/errors.js';
import { fromPackageRoot } from '../../../src/package-root.js';

/** The rows of the "## Exit codes" table: code → its meaning cell. */
function documented(): Array<[number, string]> {
  const doc = readFileSync(fromPackageRoot('docs/ci.md'), 'utf8');
  const start = doc.indexOf('\n## Exit codes\n');
  const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
  return [...section.matchAll(/^\| (\d+) \| ([^|]+) \|/gm)].map((m) => [Number(m[1]), m[2]!]);
}

/** The first words of each code's meaning, as EXIT's key names it. */
const MEANING: Record<keyof typeof EXIT, RegExp> = {
  done: /^done\b/,
  badInput: /^bad input\b/,
  needsHuman: /^a person is needed\b/,
  agentFailure: /^an agent failed\b/,
  interrupted: /^interrupted\b/,
};

describe("docs/ci.md's exit codes", () => {
  it('are the codes of EXIT plus 1 (internal error), each once, each with the meaning EXIT gives it', () => {
    const rows = documented();
    const codes = rows.map(([code]) => code);
    expect(new Set(codes).size).toBe(codes.length);
    expect([...codes].sort((a, b) => a - b)).toEqual([...Object.values(EXIT), 1].sort((a, b) => a - b));
    for (const [key, code] of Object.entries(EXIT) as Array<[keyof typeof EXIT, number]>)
      expect(rows.find(([c]) => c === code)![1], `exit ${code} (${key})`).toMatch(MEANING[key]);
    expect(rows.find(([c]) => c === 1)![1]).toMatch(/^internal error\b/);
  });
});
