// Issue 20: with a dialog open, what the person decides on can be read first. A key the dialog does not declare still
// changes the view: 7 opens the Diff tab, [ and ] choose the patch; in the Log tab x expands the selected event.
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommitDiff } from '../../../src/core/commit-diff.js';
import type { CodeReviewState, WorkflowState } from '../../../src/core/types.js';
import { fakeFiles, renderApp, waitFor } from './ui-helpers.js';

afterEach(() => cleanup());

const STEP_PATCH = 'diff --git a/a.ts b/a.ts\n--- a/a.ts\n+++ b/a.ts\n@@ -1 +1 @@\n-old\n+new\n';
const REVIEW_DIFF = 'diff --git a/b.ts b/b.ts\n--- a/b.ts\n+++ b/b.ts\n@@ -1 +1,2 @@\n b\n+reviewed\n';
const codeReview: CodeReviewState = {
  mode: 'final',
  maxRounds: 3,
  limit: 3,
  round: 3,
  step: null,
  baseTree: null,
  diff: REVIEW_DIFF,
  comments: '[CHANGES_REQUIRED]\n1. Rename it.',
  tests: [],
  approved: false,
};
const CAP: Partial<WorkflowState> = {
  phase: 'CODE_REVIEW',
  iteration: 2,
  steps: [{ n: 1, title: 'Change a', done: true, commit: 'b'.repeat(40) }],
  codeReview,
  awaiting: { kind: 'code_review_cap', round: 3, step: null },
};

function files() {
  const read: string[] = [];
  const diff: CommitDiff = {
    files: [{ path: 'a.ts', change: 'modified', added: 1, removed: 1 }],
    patch: STEP_PATCH,
    truncated: false,
  };
  const f = Object.assign(
    fakeFiles({ debug: '2026-01-01T12:00:00.000Z [planner] {"type":"text","text":"one\\ntwo"}' }),
    {
      read,
      readCommitDiff: (commit: string) => {
        read.push(commit);
        return Promise.resolve(diff);
      },
    },
  );
  return f;
}

describe('the code review cap dialog open', () => {
  it('7 shows the code review diff, [ the step patch, ] back; the dialog stays and nothing is sent', async () => {
    const f = files();
    const r = await renderApp(CAP, { files: f });
    const title = /still asks for changes/;
    await waitFor(() => expect(r.frame()).toMatch(title));
    await r.press('7');
    await waitFor(() => expect(r.frame()).toContain('[7:Diff]'));
    await waitFor(() => expect(r.frame()).toContain('+reviewed'));
    expect(r.frame()).toMatch(/M b\.ts +\+1 -0/);
    await r.press('[');
    await waitFor(() => expect(r.frame()).toContain('+new'));
    expect(r.frame()).toContain('-old');
    expect(f.read).toEqual(['b'.repeat(40)]);
    await r.press(']');
    await waitFor(() => expect(r.frame()).toContain('+reviewed'));
    expect(r.frame()).toMatch(title);
    expect(r.engine.sent).toEqual([]);
  });
});

describe('the external change dialog open', () => {
  it('in the Log tab, k moves the selection and x expands the selected event under the dialog', async () => {
    const external: Partial<WorkflowState> = {
      phase: 'RESPOND',
      iteration: 1,
      awaiting: { kind: 'external_change', file: 'plan', role: 'planner', action: { kind: 'respond' }, text: 'v2' },
    };
    const r = await renderApp(external, { files: files() });
    await r.press('4');
    await waitFor(() => expect(r.frame()).toMatch(/12:00:00 planner +text +one two/));
    await r.press('k', 'x');
    await waitFor(() => expect(r.frame()).toMatch(/text:\n {6}one\n {6}two/));
    expect(r.frame()).toContain('plan.md changed outside agent-collab');
    expect(r.engine.sent).toEqual([]);
  });
});
