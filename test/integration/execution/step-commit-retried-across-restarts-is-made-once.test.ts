// A step commit that git rejects (here a pre-commit hook) is retried after a restart when the person says so;
// once it goes through, the step has exactly one commit.
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import { parseDecision } from '../../../src/modes/decisions.js';
import { runHeadless } from '../../../src/modes/headless.js';
import { gitLog, sink, tempRepo } from '../../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

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

describe('a rejected step commit', () => {
  it('is retried across restarts until it goes through, and the step is committed once', async () => {
    const repo = tempRepo();
    cleanup = repo.cleanup;
    const hook = path.join(repo.dir, '.git', 'hooks', 'pre-commit');
    writeFileSync(hook, '#!/bin/sh\necho "hook says no" >&2\nexit 1\n');
    chmodSync(hook, 0o755);
    const base = {
      cwd: repo.dir,
      homeDir: repo.home,
      goal: 'a',
      auto: true,
      autoApprove: true,
      json: true,
      stdout: sink(),
      stderr: sink(),
    } as const;

    // First process: begins step 1, its commit is rejected by the hook → the person is asked (exit 3).
    expect(await runHeadless({ ...base, resume: 'ask', agents: agents() })).toBe(3);
    // Second process, the person said retry: the commit is rejected again.
    expect(await runHeadless({ ...base, resume: 'resume', agents: agents(), decision: parseDecision('retry') })).toBe(
      3,
    );
    rmSync(hook);
    // Third process: retry once more, now it goes through.
    expect(await runHeadless({ ...base, resume: 'resume', agents: agents(), decision: parseDecision('retry') })).toBe(
      0,
    );

    expect(gitLog(repo.dir)).toEqual(['[Step 1] add a.txt', 'initial']);
  });
});
