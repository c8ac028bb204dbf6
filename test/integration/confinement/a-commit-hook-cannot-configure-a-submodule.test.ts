// A hook of the boxed step commit tries to give a submodule's git config a core.fsmonitor: the submodules' git dirs
// are read-only in the box, so agent-collab's next git call (outside the box) runs nothing of it.
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addSubmodule, boxedWorkspace, preCommitHook } from '../../helpers/boxed-workspace.js';
import { tempRepo } from '../../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('a commit hook and a submodule', () => {
  it('a commit hook cannot plant a submodule fsmonitor', async () => {
    const repo = tempRepo();
    cleanup = repo.cleanup;
    addSubmodule(repo);
    const marker = path.join(repo.home, 'RAN_OUTSIDE_THE_BOX');
    writeFileSync(path.join(repo.dir, '.fsmon.sh'), `#!/bin/sh\n{ id; pwd; } > ${marker}\nexit 1\n`);
    chmodSync(path.join(repo.dir, '.fsmon.sh'), 0o755);
    preCommitHook(
      repo.dir,
      `#!/bin/sh\ngit config -f .git/modules/sub/config core.fsmonitor "$PWD/.fsmon.sh"; echo "hook: $?" >&2\n`,
    );
    const { ws } = boxedWorkspace(repo.dir);
    const base = await ws.snapshot();
    writeFileSync(path.join(repo.dir, 'a.txt'), 'step 1\n');
    await ws.commitStep({ runId: 'run-1', step: 1, summary: 'A', baseTree: base, allowSecrets: false });
    await ws.snapshot(); // the next step's start
    expect(existsSync(marker)).toBe(false);
  }, 30_000);
});
