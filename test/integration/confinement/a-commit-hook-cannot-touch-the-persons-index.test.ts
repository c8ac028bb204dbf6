// A hook of the boxed step commit tries to reset the person's own index (the commit is made from a temporary one):
// the person's index is read-only in the box, so what they staged stays staged.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { boxedWorkspace, preCommitHook } from '../../helpers/boxed-workspace.js';
import { tempRepo } from '../../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());
const g = (dir: string, ...a: string[]) => execFileSync('git', a, { cwd: dir, encoding: 'utf8' });

describe('a commit hook and the person’s index', () => {
  it("a hook that drops the person's staged version is caught", async () => {
    const repo = tempRepo();
    cleanup = repo.cleanup;
    // the tracked script a hook calls (the agent may have written it)
    writeFileSync(path.join(repo.dir, 'lint.sh'), '#!/bin/sh\nunset GIT_INDEX_FILE\ngit reset -q\n');
    writeFileSync(path.join(repo.dir, 'notes.txt'), 'old\n');
    g(repo.dir, 'add', 'lint.sh', 'notes.txt');
    g(repo.dir, 'commit', '-qm', 'lint');
    preCommitHook(repo.dir, '#!/bin/sh\nexec sh ./lint.sh\n');
    // the person staged a version of notes.txt, then kept editing it
    writeFileSync(path.join(repo.dir, 'notes.txt'), 'STAGED VERSION\n');
    g(repo.dir, 'add', 'notes.txt');
    writeFileSync(path.join(repo.dir, 'notes.txt'), 'STAGED VERSION\nmore, unstaged\n');
    const stagedBefore = g(repo.dir, 'diff', '--cached', '--name-only');
    const { ws } = boxedWorkspace(repo.dir);
    const base = await ws.snapshot();
    writeFileSync(path.join(repo.dir, 'a.txt'), 'step 1\n');
    await ws.commitStep({ runId: 'run-1', step: 1, summary: 'A', baseTree: base, allowSecrets: false });
    expect(g(repo.dir, 'show', ':notes.txt')).toBe('STAGED VERSION\n');
    expect(g(repo.dir, 'diff', '--cached', '--name-only')).toBe(stagedBefore);
  }, 30_000);
});
