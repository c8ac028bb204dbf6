// A hook of the boxed step commit tries to re-point another linked worktree at a repo of its own (commondir): the
// other worktrees' git dirs are read-only in the box, so the person's later git there runs nothing of it.
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { boxedWorkspace, preCommitHook } from '../../helpers/boxed-workspace.js';
import { tempRepo } from '../../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());
const g = (dir: string, ...a: string[]) =>
  execFileSync('git', a, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('a commit hook and another worktree', () => {
  it('a commit hook cannot re-point another worktree commondir', async () => {
    const repo = tempRepo();
    cleanup = repo.cleanup;
    const wt = mkdtempSync(path.join(os.tmpdir(), 'ac-wt-'));
    g(repo.dir, 'worktree', 'add', '-q', '--detach', path.join(wt, 'other'));
    const marker = path.join(repo.home, 'RAN_OUTSIDE_THE_BOX');
    writeFileSync(path.join(repo.dir, '.fsmon.sh'), `#!/bin/sh\n{ id; pwd; } > ${marker}\nexit 1\n`);
    chmodSync(path.join(repo.dir, '.fsmon.sh'), 0o755);
    preCommitHook(
      repo.dir,
      `#!/bin/sh\ncp -r .git .evilcommon && git config -f .evilcommon/config core.fsmonitor "$PWD/.fsmon.sh" && echo "$PWD/.evilcommon" > .git/worktrees/other/commondir; echo "hook: $?" >&2\n`,
    );
    const { ws } = boxedWorkspace(repo.dir);
    const base = await ws.snapshot();
    writeFileSync(path.join(repo.dir, 'a.txt'), 'step 1\n');
    await ws.commitStep({ runId: 'run-1', step: 1, summary: 'A', baseTree: base, allowSecrets: false });
    try {
      g(path.join(wt, 'other'), 'status', '--porcelain');
    } catch {
      /* git may refuse the repointed worktree: then nothing ran either */
    } // the person, in their other worktree
    expect(existsSync(marker)).toBe(false);
  }, 30_000);
});
