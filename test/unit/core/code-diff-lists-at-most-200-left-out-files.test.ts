import { describe, expect, it } from 'vitest';
import { boundDiff } from '../../../src/core/code-diff.js';

describe('boundDiff with many files', () => {
  it('stays near its bound when a change has thousands of files', () => {
    const files = Array.from({ length: 20_000 }, (_, i) =>
      [
        `diff --git a/gen/f${i}.txt b/gen/f${i}.txt`,
        'new file mode 100644',
        'index 0000000..1111111',
        '--- /dev/null',
        `+++ b/gen/f${i}.txt`,
        '@@ -0,0 +1 @@',
        `+x${i}`,
      ].join('\n'),
    );
    const r = boundDiff(files.join('\n'), 40_000);
    expect(r.text.length).toBeLessThan(80_000);
    expect(r.cut).toBe(true);
    expect(r.files).toHaveLength(20_000);
  });
  it('names the first 200 files left out and counts the others', () => {
    const files = Array.from({ length: 1_000 }, (_, i) =>
      [`diff --git a/f${i}.txt b/f${i}.txt`, '--- a/f.txt', '+++ b/f.txt', '@@ -1 +1 @@', `-a${i}`, `+b${i}`].join(
        '\n',
      ),
    );
    const r = boundDiff(files.join('\n'), 2_000);
    const named = r.text.split('\n').filter((l) => /^- f\d+\.txt /.test(l));
    expect(named).toHaveLength(200);
    const listed = /\[… (\d+) more changed file\(s\) not shown:/.exec(r.text);
    expect(r.text).toContain(`- … and ${Number(listed?.[1]) - 200} more`);
  });
});
