// A submodule's `.git` lies in the working tree, the agent's to rewrite: an agent in the box can make it a repo of its
// own with a core.fsmonitor script. agent-collab's own git (outside the box) must never run it.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GitStepWorkspace } from '../../../src/adapters/git/step-workspace.js';
import { addSubmodule } from '../../helpers/boxed-workspace.js';
import { tempRepo } from '../../helpers/repo.js';
import { runBoxed } from './helpers.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('a submodule rewritten by the agent', () => {
  it('its fsmonitor never runs at agent-collab’s next snapshot, so nothing is written outside the box', async () => {
    const repo = tempRepo();
    cleanup = repo.cleanup;
    addSubmodule(repo);
    mkdirSync(path.join(repo.dir, '.agent-collab'));
    const marker = path.join(repo.home, 'RAN_OUTSIDE_THE_BOX');
    // what the agent does in its turn, in the box
    const script = [
      `touch '${marker}' 2>/dev/null && echo 'direct write: allowed' || echo 'direct write: refused'`,
      `printf '#!/bin/sh\\n{ id; echo "$PWD"; } > ${marker}\\nexit 1\\n' > .fsmon.sh && chmod +x .fsmon.sh`,
      'cd sub',
      'mv .git ../.was-gitfile',
      'git init -q . && git config core.fsmonitor "$PWD/../.fsmon.sh"',
      'git -c safe.directory="*" fetch -q "$(cd .. && pwd)/.git/modules/sub" HEAD && git reset -q --hard FETCH_HEAD; echo "in-box sub repo: $? $(git rev-parse HEAD)"',
    ].join('\n');
    const gitfile = readFileSync(path.join(repo.dir, 'sub', '.git'), 'utf8');
    const boxed = runBoxed({ repo: repo.dir, workdir: '.agent-collab', home: repo.home }, script);
    expect(boxed.output).toContain('direct write: refused');
    // The submodule's gitfile is read-only in the box: it can be neither moved aside nor rewritten.
    expect(readFileSync(path.join(repo.dir, 'sub', '.git'), 'utf8')).toBe(gitfile);
    expect(existsSync(marker)).toBe(false);
    // agent-collab's next snapshot (end of the step, or the step commit)
    const ws = new GitStepWorkspace(repo.dir, '.agent-collab');
    await ws.snapshot();
    expect(existsSync(marker)).toBe(false);
  }, 30_000);
});
