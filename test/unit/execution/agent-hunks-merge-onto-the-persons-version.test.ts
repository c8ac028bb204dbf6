// The line merge behind "only the agent's hunks are committed": hunks measured on the working tree before the step
// are put onto HEAD's (or the index's) version, shifted past the person's own hunks; lines both changed overlap.
import { describe, expect, it } from 'vitest';
import {
  applyAgentHunks,
  hunksOverlap,
  parseZeroContextHunks,
  splitLines,
  type Hunk,
} from '../../../src/core/hunk-merge.js';

function hunk(oldStart: number, oldCount: number, newStart: number, newCount: number): Hunk {
  return { oldStart, oldCount, newStart, newCount };
}

function merge(now: string, target: string, agent: Hunk[], person: Hunk[]): string | 'overlap' {
  const r = applyAgentHunks(splitLines(now), splitLines(target), agent, person);
  return r.kind === 'merged' ? r.text : 'overlap';
}

describe('zero-context hunk headers', () => {
  it('reads changes, insertions, deletions and omitted counts as 0-based line ranges', () => {
    const diff = [
      'diff --git a/x b/x',
      '@@ -2 +2 @@ a',
      '-b',
      '+B',
      '@@ -5,0 +6,2 @@ e',
      '+n1',
      '+n2',
      '@@ -7,2 +8,0 @@',
      '-g',
      '-h',
    ].join('\n');
    expect(parseZeroContextHunks(diff)).toEqual([hunk(1, 1, 1, 1), hunk(5, 0, 5, 2), hunk(6, 2, 8, 0)]);
  });
});

describe('lines', () => {
  it('keep their terminators, so joining gives the text back byte for byte (no newline at the end included)', () => {
    for (const t of ['', 'a', 'a\n', 'a\nb', 'a\n\n', '\n']) expect(splitLines(t).join('')).toBe(t);
    expect(splitLines('a\nb')).toEqual(['a\n', 'b']);
  });
});

describe('putting the agent’s hunks onto the person’s version', () => {
  // base (the working tree before the step): line 2 is the person's edit; HEAD has the original line 2.
  const head = 'l1\nl2\nl3\nl4\nl5\n';
  // base = 'l1\nPERSON\nl3\nl4\nl5\n'
  const personHunks = [hunk(1, 1, 1, 1)]; // base → head

  it('an agent hunk far from the person’s goes onto HEAD’s version unshifted', () => {
    const now = 'l1\nPERSON\nl3\nl4\nAGENT\n';
    expect(merge(now, head, [hunk(4, 1, 4, 1)], personHunks)).toBe('l1\nl2\nl3\nl4\nAGENT\n');
  });

  it('an agent hunk right next to the person’s (no line between) is not an overlap', () => {
    const now = 'l1\nPERSON\nAGENT\nl4\nl5\n';
    expect(merge(now, head, [hunk(2, 1, 2, 1)], personHunks)).toBe('l1\nl2\nAGENT\nl4\nl5\n');
    // Lines inserted directly before or after the person's line.
    const before = 'l1\nNEW\nPERSON\nl3\nl4\nl5\n';
    expect(merge(before, head, [hunk(1, 0, 1, 1)], personHunks)).toBe('l1\nNEW\nl2\nl3\nl4\nl5\n');
    const after = 'l1\nPERSON\nNEW\nl3\nl4\nl5\n';
    expect(merge(after, head, [hunk(2, 0, 2, 1)], personHunks)).toBe('l1\nl2\nNEW\nl3\nl4\nl5\n');
  });

  it('is shifted by the lines the person added or removed above it', () => {
    // The person inserted two lines after l1 (base has them, HEAD not); the agent changes l4.
    // base2 = 'l1\np1\np2\nl2\nl3\nl4\n'
    const head2 = 'l1\nl2\nl3\nl4\n';
    const now2 = 'l1\np1\np2\nl2\nl3\nAGENT\n';
    expect(merge(now2, head2, [hunk(5, 1, 5, 1)], [hunk(1, 2, 1, 0)])).toBe('l1\nl2\nl3\nAGENT\n');
    // The person deleted l2 (HEAD has it, base not); the agent appends a line.
    // base3 = 'l1\nl3\n'
    const head3 = 'l1\nl2\nl3\n';
    expect(merge('l1\nl3\nEND\n', head3, [hunk(2, 0, 2, 1)], [hunk(1, 0, 1, 1)])).toBe('l1\nl2\nl3\nEND\n');
  });

  it('a hunk that changes a line the person changed is an overlap', () => {
    const now = 'l1\nAGENT\nl3\nl4\nl5\n';
    expect(merge(now, head, [hunk(1, 1, 1, 1)], personHunks)).toBe('overlap');
    // A range that covers the person's line too.
    expect(hunksOverlap(hunk(0, 3, 0, 1), hunk(1, 1, 1, 1))).toBe(true);
    // An insertion strictly inside the person's range, and two insertions at one place (no order to tell).
    expect(hunksOverlap(hunk(2, 0, 2, 1), hunk(1, 2, 1, 2))).toBe(true);
    expect(hunksOverlap(hunk(2, 0, 2, 1), hunk(2, 0, 2, 1))).toBe(true);
    // Next to each other is fine.
    expect(hunksOverlap(hunk(3, 1, 3, 1), hunk(1, 2, 1, 2))).toBe(false);
    expect(hunksOverlap(hunk(3, 0, 3, 1), hunk(1, 2, 1, 2))).toBe(false);
  });

  it('with no person hunks the result is the agent’s version', () => {
    const now = 'l1\nl2\nX\nl4\nl5\n';
    expect(merge(now, head, [hunk(2, 1, 2, 1)], [])).toBe(now);
  });
});
