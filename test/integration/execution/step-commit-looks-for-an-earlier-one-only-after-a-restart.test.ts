// A step commit first searches the history for this run's commit of the step (a crash may have happened between
// `git commit` and saving the state). A step this process began itself cannot have one, so that search is skipped;
// after a restart it runs, and the step is still committed exactly once.
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import { GitStepWorkspace } from '../../../src/adapters/git/step-workspace.js';
import type { StepCommitOptions } from '../../../src/core/ports.js';
import { parseDecision } from '../../../src/modes/decisions.js';
import { runHeadless } from '../../../src/modes/headless.js';
import { gitLog, sink, tempRepo } from '../../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  cleanup?.();
});

function agents() {
  return {
    planner: new FakeAgent('planner', {
      rules: [
        { when: { kind: 'write_plan' }, do: { text: '## Steps\n1. [ ] Add a.txt\n' } },
        { when: { step: 1 }, do: { writeFiles: { 'a.txt': 'a\n' }, text: 'Summary: add a.txt' } },
      ],
    }),
    reviewer: new FakeAgent('reviewer', { rules: [{ do: { verdict: 'APPROVED', text: 'Fine.' } }] }),
  };
}

function recordCommits(): Array<boolean | undefined> {
  const seen: Array<boolean | undefined> = [];
  const original = GitStepWorkspace.prototype.commitStep;
  vi.spyOn(GitStepWorkspace.prototype, 'commitStep').mockImplementation(function (this: GitStepWorkspace, opts: StepCommitOptions) {
    seen.push(opts.checkExisting);
    return original.call(this, opts);
  });
  return seen;
}

describe('step commit: the search for an earlier commit', () => {
  it('is skipped for a step this process began, and runs after a restart; one commit either way', async () => {
    const repo = tempRepo();
    cleanup = repo.cleanup;
    const hook = path.join(repo.dir, '.git', 'hooks', 'pre-commit');
    writeFileSync(hook, '#!/bin/sh\necho "hook says no" >&2\nexit 1\n');
    chmodSync(hook, 0o755);
    const seen = recordCommits();
    const base = { cwd: repo.dir, homeDir: repo.home, goal: 'a', auto: true, autoApprove: true, json: true, stdout: sink(), stderr: sink() } as const;

    // First process: begins step 1, its commit is rejected by the hook → the person is asked (exit 3).
    expect(await runHeadless({ ...base, resume: 'ask', agents: agents() })).toBe(3);
    // Second process, the person said retry: the commit is rejected again (same process began nothing).
    expect(await runHeadless({ ...base, resume: 'resume', agents: agents(), decision: parseDecision('retry') })).toBe(3);
    rmSync(hook);
    // Third process: retry once more, now it goes through.
    expect(await runHeadless({ ...base, resume: 'resume', agents: agents(), decision: parseDecision('retry') })).toBe(0);

    expect(seen).toEqual([false, true, true]);
    expect(gitLog(repo.dir)).toEqual(['[Step 1] add a.txt', 'initial']);
  });
});
