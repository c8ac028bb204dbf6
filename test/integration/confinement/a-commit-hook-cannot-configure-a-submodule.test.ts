// A hook of the boxed step commit tries to give a submodule's git config a core.fsmonitor: the submodules' git dirs
// are read-only in the box, so agent-collab's next git call (outside the box) runs nothing of it.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { agentConfinement } from '../../../src/adapters/confinement/index.js';
import { BoxedCommit } from '../../../src/adapters/git/boxed-commit.js';
import { GitRepoState } from '../../../src/adapters/git/repo-state.js';
import { GitStepWorkspace } from '../../../src/adapters/git/step-workspace.js';
import { tempRepo } from '../../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());
const g = (dir: string, ...a: string[]) =>
  execFileSync('git', a, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('a commit hook and a submodule', () => {
  it('a commit hook cannot plant a submodule fsmonitor', async () => {
    const repo = tempRepo();
    cleanup = repo.cleanup;
    const src = mkdtempSync(path.join(os.tmpdir(), 'ac-subsrc-'));
    g(src, 'init', '-q', '-b', 'main');
    writeFileSync(path.join(src, 's.txt'), 's\n');
    g(src, 'add', '.');
    g(src, '-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 's');
    g(repo.dir, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', src, 'sub');
    g(repo.dir, 'commit', '-qm', 'sub');
    const work = path.join(repo.dir, '.agent-collab');
    mkdirSync(work);
    const marker = path.join(repo.home, 'RAN_OUTSIDE_THE_BOX');
    writeFileSync(path.join(repo.dir, '.fsmon.sh'), `#!/bin/sh\n{ id; pwd; } > ${marker}\nexit 1\n`);
    chmodSync(path.join(repo.dir, '.fsmon.sh'), 0o755);
    writeFileSync(
      path.join(repo.dir, '.git', 'hooks', 'pre-commit'),
      `#!/bin/sh\ngit config -f .git/modules/sub/config core.fsmonitor "$PWD/.fsmon.sh"; echo "hook: $?" >&2\n`,
    );
    chmodSync(path.join(repo.dir, '.git', 'hooks', 'pre-commit'), 0o755);
    const state = new GitRepoState({
      repoRoot: repo.dir,
      workdir: work,
      configDir: work,
      state: path.join(work, 'state.json'),
      debugLog: path.join(work, 'debug.log'),
      runs: path.join(work, 'runs'),
      history: path.join(work, 'history'),
      log: path.join(work, 'log.md'),
    });
    const box = new BoxedCommit(agentConfinement(work), state, path.join(work, 'backups'));
    const ws = new GitStepWorkspace(repo.dir, '.agent-collab', {}, [], box.run);
    const base = await ws.snapshot();
    writeFileSync(path.join(repo.dir, 'a.txt'), 'step 1\n');
    await ws.commitStep({ runId: 'run-1', step: 1, summary: 'A', baseTree: base, allowSecrets: false });
    await ws.snapshot(); // the next step's start
    expect(existsSync(marker)).toBe(false);
  }, 30_000);
});
