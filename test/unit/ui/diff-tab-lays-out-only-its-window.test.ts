// Issue 20: the Diff tab's patch is laid out a window at a time (a huge patch costs a frame what fits on screen),
// says where it was cut, and styles each kind of diff line.
import { describe, expect, it } from 'vitest';
import { diffFileStats } from '../../../src/core/commit-diff.js';
import type { StepInfo } from '../../../src/core/types.js';
import { diffChoices, diffTab, MAX_LISTED_FILES } from '../../../src/ui/tabs/diff-tab.js';
import { stateIn } from '../../helpers/states.js';

const steps: StepInfo[] = [{ n: 1, title: 'Big', done: true, commit: 'a'.repeat(40) }];
const state = stateIn('DONE', { steps });

function bigPatch(lines: number): string {
  const body = Array.from({ length: lines }, (_, i) => `+line ${i}`).join('\n');
  return `diff --git a/big.txt b/big.txt\nnew file mode 100644\n--- /dev/null\n+++ b/big.txt\n@@ -0,0 +1,${lines} @@\n${body}\n`;
}

describe('the Diff tab', () => {
  it('makes only the lines asked for, whatever the size of the patch, and ends a cut patch with a note', () => {
    const patch = bigPatch(200_000);
    const files = [{ path: 'big.txt', change: 'added' as const, added: 200_000, removed: 0 }];
    const src = diffTab(
      state,
      diffChoices(state),
      0,
      { status: 'loaded', diff: { files, patch, truncated: true } },
      80,
    );
    expect(src.length).toBeGreaterThan(200_000);
    const window = src.slice(100_000, 100_020);
    expect(window).toHaveLength(20);
    expect(window.every((l) => l.color === 'green' && l.text.startsWith('+line '))).toBe(true);
    const last = src.slice(src.length - 1, src.length)[0];
    expect(last?.text).toContain(`the patch is cut here: \`git show ${'a'.repeat(40)}\``);
  });

  it('styles file headers bold, hunk headers cyan, removed red, context plain; cuts long lines at the edge', () => {
    const patch = [
      'diff --git a/a.ts b/a.ts',
      'index 1..2 100644',
      '--- a/a.ts',
      '+++ b/a.ts',
      '@@ -1,2 +1,2 @@',
      ' keep',
      '-old',
      `+${'x'.repeat(200)}`,
    ].join('\n');
    const diff = { files: diffFileStats(patch), patch, truncated: false };
    const src = diffTab(state, diffChoices(state), 0, { status: 'loaded', diff }, 40);
    const lines = src.slice(0, src.length);
    const of = (start: string) => lines.find((l) => l.text.startsWith(start));
    expect(of('diff --git')?.bold).toBe(true);
    // "--- a/a.ts" is a file header line, not a removed line.
    expect(of('--- a/a.ts')?.color).toBeUndefined();
    expect(of('@@ -1,2')?.color).toBe('cyan');
    expect(of('-old')?.color).toBe('red');
    expect(of(' keep')?.color).toBeUndefined();
    expect(of('+xxx')?.text).toHaveLength(40);
    expect(of('  M a.ts')?.text).toMatch(/\+1 -1$/);
  });

  it('lists at most MAX_LISTED_FILES files and says how many more', () => {
    const files = Array.from({ length: MAX_LISTED_FILES + 5 }, (_, i) => ({
      path: `f${i}.txt`,
      change: 'added' as const,
      added: 1,
      removed: 0,
    }));
    const src = diffTab(
      state,
      diffChoices(state),
      0,
      { status: 'loaded', diff: { files, patch: '', truncated: false } },
      80,
    );
    const texts = src.slice(0, src.length).map((l) => l.text);
    expect(texts).toContain('  … and 5 more file(s)');
    expect(texts.filter((t) => /^ {2}A f\d+\.txt/.test(t))).toHaveLength(MAX_LISTED_FILES);
  });

  it('says when no step is committed yet, and when a commit cannot be read', () => {
    const none = stateIn('EXECUTE');
    expect(diffTab(none, diffChoices(none), -1, { status: 'missing' }, 80).slice(0, 1)[0]?.text).toContain(
      'No step committed yet',
    );
    const missing = diffTab(state, diffChoices(state), 0, { status: 'missing' }, 80);
    expect(missing.slice(0, missing.length).map((l) => l.text)).toContain(
      'Commit aaaaaaa cannot be read (not in this repository any more?).',
    );
  });
});
