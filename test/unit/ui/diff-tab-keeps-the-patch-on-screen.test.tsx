// The Diff tab keeps a few patches read: when the person steps through many quickly and the reads finish out of
// order, the patch on screen is never the one dropped (it stayed on "loading" for good), and a failed read is read
// again when the person comes back to it.
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommitDiff } from '../../../src/core/commit-diff.js';
import type { WorkflowState } from '../../../src/core/types.js';
import { fakeFiles, renderApp, waitFor } from './ui-helpers.js';

afterEach(() => cleanup());

const hash = (n: number): string => String(n).repeat(40);
const patchOf = (n: number): CommitDiff => ({
  files: [{ path: `f${n}.ts`, change: 'modified', added: 1, removed: 0 }],
  patch: `diff --git a/f${n}.ts b/f${n}.ts\n--- a/f${n}.ts\n+++ b/f${n}.ts\n@@ -1 +1,2 @@\n x\n+line of step ${n}\n`,
  truncated: false,
});
const SIX_STEPS: Partial<WorkflowState> = {
  phase: 'DONE',
  iteration: 1,
  steps: [1, 2, 3, 4, 5, 6].map((n) => ({ n, title: `Step ${n}`, done: true, commit: hash(n) })),
};

/** A files reader whose patch reads wait until the test settles them, in the order it chooses. */
function heldReads() {
  const pending = new Map<string, { resolve: (d: CommitDiff) => void; reject: (e: Error) => void }>();
  const files = Object.assign(fakeFiles({}), {
    readCommitDiff: (commit: string) =>
      new Promise<CommitDiff>((resolve, reject) => pending.set(commit, { resolve, reject })),
  });
  const settle = (n: number, ok = true): void => {
    const p = pending.get(hash(n));
    pending.delete(hash(n));
    if (ok) p?.resolve(patchOf(n));
    else p?.reject(new Error('git failed'));
  };
  return { files, pending, settle };
}

describe('the Diff tab under quick steps', () => {
  it('the patch on screen stays when the older reads finish after it', async () => {
    const h = heldReads();
    const r = await renderApp(SIX_STEPS, { files: h.files });
    await r.press('7');
    await waitFor(() => expect(h.pending.has(hash(6))).toBe(true));
    for (let n = 5; n >= 1; n--) {
      await r.press('[');
      await waitFor(() => expect(h.pending.has(hash(n))).toBe(true));
    }
    h.settle(1); // the one on screen first, then the five others
    await waitFor(() => expect(r.frame()).toContain('+line of step 1'));
    for (const n of [6, 5, 4, 3, 2]) h.settle(n);
    await r.press('x'); // any key: a frame after every read has finished
    await waitFor(() => expect(r.frame()).toContain('+line of step 1'));
  });

  it('a failed read shows the patch as missing and is read again when the person comes back', async () => {
    const h = heldReads();
    const r = await renderApp(SIX_STEPS, { files: h.files });
    await r.press('7');
    await waitFor(() => expect(h.pending.has(hash(6))).toBe(true));
    h.settle(6, false);
    await waitFor(() => expect(r.frame()).not.toContain('loading'));
    await r.press('[');
    await waitFor(() => expect(h.pending.has(hash(5))).toBe(true));
    await r.press(']');
    await waitFor(() => expect(h.pending.has(hash(6))).toBe(true));
    h.settle(6);
    await waitFor(() => expect(r.frame()).toContain('+line of step 6'));
  });
});
