// The code review's pure parts: the diff bounded per file (biggest hunks kept, the rest listed), the planner's fix
// steps read from its answer, and fix steps appended to plan.md's steps without touching the rest.
import { describe, expect, it } from 'vitest';
import { boundDiff } from '../../../src/core/code-diff.js';
import { parseFixSteps } from '../../../src/core/code-review.js';
import { appendSteps, parseSteps } from '../../../src/core/plan-steps.js';

function hunk(start: number, lines: number, tag: string): string {
  const body = Array.from({ length: lines }, (_, i) => `+${tag} line ${i}`);
  return [`@@ -${start},0 +${start},${lines} @@`, ...body].join('\n');
}

function fileDiff(name: string, hunks: string[]): string {
  return [
    `diff --git a/${name} b/${name}`,
    'index 1111111..2222222 100644',
    `--- a/${name}`,
    `+++ b/${name}`,
    ...hunks,
  ].join('\n');
}

describe('boundDiff', () => {
  it('gives a diff that fits whole and unchanged, with its files', () => {
    const patch = `${fileDiff('a.ts', [hunk(1, 2, 'a')])}\n${fileDiff('b.ts', [hunk(1, 1, 'b')])}\n`;
    expect(boundDiff(patch, 10_000)).toEqual({ text: patch, files: ['a.ts', 'b.ts'], cut: false });
  });

  it('keeps a big file’s header and biggest hunk, names the smaller hunks left out, keeps small files whole', () => {
    const big = fileDiff('big.ts', [hunk(1, 60, 'small1'), hunk(100, 200, 'huge'), hunk(400, 60, 'small2')]);
    const small = fileDiff('small.ts', [hunk(1, 3, 'tiny')]);
    const max = 4000;
    const r = boundDiff(`${big}\n${small}\n`, max);

    expect(r.cut).toBe(true);
    expect(r.files).toEqual(['big.ts', 'small.ts']);
    expect(r.text.length).toBeLessThanOrEqual(max + 200);
    expect(r.text).toContain('+++ b/big.ts');
    expect(r.text).toContain('+huge line 0');
    expect(r.text).toContain('[… 2 smaller hunk(s) of big.ts not shown (+120 -0 lines)]');
    expect(r.text).not.toContain('+small1 line');
    expect(r.text).toContain(small);
  });

  it('cuts a single hunk bigger than the file’s share, saying how many of its lines are left out', () => {
    const r = boundDiff(fileDiff('one.ts', [hunk(1, 500, 'x')]), 2000);
    expect(r.text).toContain('+x line 0');
    expect(r.text).not.toContain('+x line 499');
    expect(r.text).toMatch(/\[… \d+ more line\(s\) of this hunk not shown\]/);
    expect(r.text.length).toBeLessThanOrEqual(2100);
  });

  it('lists the files that do not fit at all, with their line counts, and stays near the bound', () => {
    const files = Array.from({ length: 40 }, (_, i) => fileDiff(`src/file-${i}.ts`, [hunk(1, 30, `f${i}`)]));
    const r = boundDiff(files.join('\n'), 3000);

    expect(r.files).toHaveLength(40);
    expect(r.text.length).toBeLessThanOrEqual(3000 + 40 * 40);
    const listed = r.text.split('\n').filter((l) => /^- src\/file-\d+\.ts \(\+30 -0 lines\)$/.test(l));
    const shown = r.files.filter((f) => r.text.includes(`+++ b/${f}`));
    expect(listed.length).toBeGreaterThan(0);
    // Every file is either shown or listed.
    expect(listed.length + shown.length).toBe(40);
  });

  it('never passes a binary patch on: its header and a note instead', () => {
    const binary = [
      'diff --git a/logo.png b/logo.png',
      'new file mode 100644',
      'index 0000000..3333333',
      'GIT binary patch',
      `literal 5000`,
      ...Array.from(
        { length: 80 },
        () => 'zcmeAS@N?(olHy`uVBq!ia0vp^0wB!63?wyl`GbKJV{wqX6T`Z5GB1G~mUKs7M+SzC{oH>NS%G}Z0X`wF',
      ),
    ].join('\n');
    const r = boundDiff(`${binary}\n${fileDiff('a.ts', [hunk(1, 2, 'a')])}`, 1500);
    expect(r.text).toContain('diff --git a/logo.png b/logo.png');
    expect(r.text).toContain('[binary change, not shown]');
    expect(r.text).not.toContain('zcmeAS');
    expect(r.text).toContain('+a line 1');
  });
});

describe('parseFixSteps', () => {
  it('reads the numbered items under a heading naming the steps, not the remarks after it', () => {
    const answer =
      'I agree with both comments.\n\n## Fix steps\n1. Handle empty input in parse()\n2) **Rename** `tmp`\n\n## Notes\n- comment 3 is wrong: the API needs it\n';
    expect(parseFixSteps(answer)).toEqual(['Handle empty input in parse()', '**Rename** `tmp`']);
  });

  it('takes every list item when there is no such heading, and none from prose', () => {
    expect(parseFixSteps('- [ ] Add a test\n- Fix the typo\n')).toEqual(['Add a test', 'Fix the typo']);
    expect(parseFixSteps('Nothing to fix, the reviewer is wrong.')).toEqual([]);
  });
});

describe('appendSteps', () => {
  it('appends after the last step and its own lines, numbered on, and the rest of the plan stays as it was', () => {
    const plan =
      '# Task\n\n## Steps\n1. [x] Add a (commit abc1234)\n   details of a\n2. [x] Add b\n\n## Risks\n- none\n';
    const next = appendSteps(plan, ['Fix a (from code review, round 1)']);
    expect(next).toBe(
      '# Task\n\n## Steps\n1. [x] Add a (commit abc1234)\n   details of a\n2. [x] Add b\n3. [ ] Fix a (from code review, round 1)\n\n## Risks\n- none\n',
    );
    expect(parseSteps(next).map((s) => [s.n, s.title, s.done])).toEqual([
      [1, 'Add a', true],
      [2, 'Add b', true],
      [3, 'Fix a (from code review, round 1)', false],
    ]);
  });

  it('replaces the open steps of the same code review round: a round replayed after a crash adds them once', () => {
    const plan = '## Steps\n1. [x] Add a\n2. [ ] Fix a (from code review, round 1)\n';
    const again = appendSteps(plan, ['Fix a better (from code review, round 1)']);
    expect(parseSteps(again).map((s) => s.title)).toEqual(['Add a', 'Fix a better (from code review, round 1)']);
    const next = appendSteps(again, ['Fix b (from code review, round 2)']);
    expect(parseSteps(next)).toHaveLength(3);
  });

  it('adds a Steps section to a plan without one', () => {
    expect(parseSteps(appendSteps('# Task\n\nNo steps yet.\n', ['Do it'])).map((s) => s.title)).toEqual(['Do it']);
  });
});
