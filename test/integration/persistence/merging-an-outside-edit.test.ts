import { describe, expect, it } from 'vitest';
import { mergeBodies } from '../../../src/persistence/external-edits.js';

describe("merging the person's edit of plan.md with the agent's new version (git merge-file)", () => {
  it('merges edits of different lines cleanly', async () => {
    const base = 'one\ntwo\nthree\n';
    const r = await mergeBodies(base, 'ONE\ntwo\nthree\n', 'one\ntwo\nTHREE\n');
    expect(r).toEqual({ text: 'ONE\ntwo\nTHREE\n', conflicts: 0 });
  });

  it('marks a conflict and counts it', async () => {
    const r = await mergeBodies('one\n', 'yours\n', 'agents\n');
    expect(r.conflicts).toBe(1);
    expect(r.text).toContain('<<<<<<< your edit');
    expect(r.text).toContain(">>>>>>> agent's version");
  });

  it("fails with git's reason when git cannot merge (exit 255 is an error, not 255 conflicts)", async () => {
    await expect(mergeBodies('a\0b', 'a\0c', 'a\0d')).rejects.toThrow(
      /^git merge-file failed: error: Cannot merge binary files/,
    );
  });
});
