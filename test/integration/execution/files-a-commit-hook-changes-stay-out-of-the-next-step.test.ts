// Each step is measured against a snapshot taken when the step begins, after the previous step's commit has fully
// run: files a commit hook writes or changes then are not the next step's work, and stay out of its commit.
import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import { runHeadless } from '../../../src/modes/headless.js';
import { gitLog, sink, tempRepo } from '../../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function agents() {
  return {
    planner: new FakeAgent('planner', {
      rules: [
        {
          when: { kind: 'write_plan' },
          do: { text: '## Steps\n1. [ ] Add a.txt\n2. [ ] Add b.txt\n3. [ ] Add c.txt\n' },
        },
        { when: { step: 1 }, do: { writeFiles: { 'a.txt': 'a\n' }, text: 'Summary: add a.txt' } },
        { when: { step: 2 }, do: { writeFiles: { 'b.txt': 'b\n' }, text: 'Summary: add b.txt' } },
        { when: { step: 3 }, do: { writeFiles: { 'c.txt': 'c\n' }, text: 'Summary: add c.txt' } },
      ],
    }),
    reviewer: new FakeAgent('reviewer', { rules: [{ do: { verdict: 'APPROVED', text: 'Fine.' } }] }),
  };
}

const filesOf = (dir: string, rev: string): string[] =>
  execFileSync('git', ['show', '--name-only', '--format=', rev], { cwd: dir, encoding: 'utf8' }).trim().split('\n');

describe('a post-commit hook that writes files', () => {
  it('is seen by the next step: each step commit holds only its own file, in auto mode', async () => {
    const repo = tempRepo('[test]\nfallback_to_agent = false\n');
    cleanup = repo.cleanup;
    const hook = path.join(repo.dir, '.git', 'hooks', 'post-commit');
    writeFileSync(hook, '#!/bin/sh\necho commit >> hook.log\necho stamp >> README.md\n');
    chmodSync(hook, 0o755);

    const code = await runHeadless({
      cwd: repo.dir,
      homeDir: repo.home,
      goal: 'abc',
      auto: true,
      autoApprove: true,
      json: true,
      resume: 'ask',
      agents: agents(),
      stdout: sink(),
      stderr: sink(),
    });
    expect(code).toBe(0);
    expect(gitLog(repo.dir)).toEqual(['[Step 3] add c.txt', '[Step 2] add b.txt', '[Step 1] add a.txt', 'initial']);
    expect(filesOf(repo.dir, 'HEAD~2')).toEqual(['a.txt']);
    expect(filesOf(repo.dir, 'HEAD~1')).toEqual(['b.txt']);
    expect(filesOf(repo.dir, 'HEAD')).toEqual(['c.txt']);
    const status = execFileSync('git', ['status', '--porcelain'], { cwd: repo.dir, encoding: 'utf8' });
    expect(status).toContain(' M README.md');
    expect(status).toContain('?? hook.log');
  });
});
