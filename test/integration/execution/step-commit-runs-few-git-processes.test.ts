// Each git process a step commit starts is on the person's clock (a fork of agent-collab plus git's own start). From a
// clean tree one diff lists the step's files and gives the patch, new files are marked intent-to-add without asking
// the index first, and the new commit's hash is read from git's ref files.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { headCommitFromFiles } from '../../../src/adapters/git/git.js';
import { parseRawAndPatch } from '../../../src/adapters/git/step-workspace.js';
import { recordGitCalls } from '../../helpers/git-calls.js';
import { fixture, type Fixture } from './git-fixture.js';

let fx: Fixture | undefined;
const restore: Array<() => void> = [];
afterEach(() => {
  for (const r of restore.splice(0)) r();
  fx?.cleanup();
  fx = undefined;
});

function recordGit(): () => string[] {
  const git = recordGitCalls();
  restore.push(git.restore);
  return git.calls;
}

// A text file with a NUL byte after git's 8000-byte look for binary content: its patch line holds the NUL as it is.
const LATE_NUL = `${'x'.repeat(9000)}\0tail\n`;

describe('step commit from a clean tree', () => {
  it('runs six git processes: HEAD’s tree, the snapshot (2), one diff, intent-to-add, commit (no auto-maintenance)', async () => {
    fx = fixture();
    fx.write('lib.txt', 'v1\n');
    fx.write('gone.txt', 'bye\n');
    fx.git('add', '-A');
    fx.git('commit', '-q', '-m', 'seed');
    const base = await fx.ws.snapshot();
    fx.write('lib.txt', 'v2\n');
    fx.remove('gone.txt');
    fx.write('new file.txt', 'new\n');
    fx.write('line\nbreak.txt', 'odd name\n');
    fx.write('late-nul.txt', LATE_NUL);
    fx.write('img.bin', Buffer.from([0, 1, 2, 255]));

    const calls = recordGit();
    // git's own trace names every process it starts, `git maintenance run --auto` after a commit among them.
    const trace = path.join(fx.dir, '..', `git-trace-${process.pid}.txt`);
    process.env.GIT_TRACE = trace;
    restore.push(() => {
      delete process.env.GIT_TRACE;
      rmSync(trace, { force: true });
    });
    const r = await fx.ws.commitStep({ runId: 'run-1', step: 1, summary: 'Change things', baseTree: base, allowSecrets: false, checkExisting: false });
    expect(r.kind).toBe('committed');
    expect(calls().sort()).toEqual(['add -A', 'add -N', 'commit -q', 'diff --raw', 'rev-parse -q', 'write-tree'].sort());
    expect(readFileSync(trace, 'utf8')).toMatch(/built-in: git commit/);
    expect(readFileSync(trace, 'utf8')).not.toMatch(/maintenance/);

    if (r.kind !== 'committed') return;
    expect(r.hash).toBe(fx.git('rev-parse', 'HEAD').trim());
    expect(r.files?.sort()).toEqual(['gone.txt', 'img.bin', 'late-nul.txt', 'lib.txt', 'line\nbreak.txt', 'new file.txt']);
    // The patch is exactly what the commit holds.
    expect(r.patch).toBe(fx.git('diff', '--binary', '--no-ext-diff', '--no-textconv', '--no-color', '--src-prefix=a/', '--dst-prefix=b/', 'HEAD~1', 'HEAD'));
    expect(r.patch).toContain('\0tail');
  });

  it('commits a step that only edits tracked files with five (nothing to mark intent-to-add)', async () => {
    fx = fixture();
    fx.write('lib.txt', 'v1\n');
    fx.git('add', '-A');
    fx.git('commit', '-q', '-m', 'seed');
    const base = await fx.ws.snapshot();
    fx.write('lib.txt', 'v2\n');
    const calls = recordGit();
    const r = await fx.ws.commitStep({ runId: 'run-1', step: 1, summary: 'Edit', baseTree: base, allowSecrets: false, checkExisting: false });
    expect(r.kind).toBe('committed');
    expect(calls()).toHaveLength(5);
    expect(fx.commitFiles()).toEqual(['M\tlib.txt']);
  });
});

describe('reading git’s combined raw list and patch', () => {
  it('splits the NUL-separated entries from the patch, and reads a list without a patch', () => {
    const out = ':000000 100644 0000000 f70f10e A\0a.txt\0:100644 000000 1111111 0000000 D\0:odd\0\0diff --git a/a.txt b/a.txt\nnew\0file\n';
    expect(parseRawAndPatch(out)).toEqual({
      changes: [
        { path: 'a.txt', status: 'A', newMode: '100644' },
        { path: ':odd', status: 'D', newMode: '000000' },
      ],
      patch: 'diff --git a/a.txt b/a.txt\nnew\0file\n',
    });
    expect(parseRawAndPatch(':100644 100644 1111111 2222222 M\0x\0')).toEqual({ changes: [{ path: 'x', status: 'M', newMode: '100644' }], patch: '' });
    expect(parseRawAndPatch('')).toEqual({ changes: [], patch: '' });
    expect(() => parseRawAndPatch(':100644 100644 1111111 2222222 M\0x')).toThrow(/cut short/);
  });
});

describe('the new commit’s hash from git’s ref files', () => {
  it('reads a branch and a detached HEAD; says nothing where only packed refs or another format hold it', () => {
    fx = fixture();
    const f = fx;
    const [headFile = '', headsDir = ''] = f.git('rev-parse', '--git-path', 'HEAD', '--git-path', 'refs/heads').split('\n');
    const refs = { headFile: path.resolve(f.dir, headFile), headsDir: path.resolve(f.dir, headsDir) };
    const head = f.git('rev-parse', 'HEAD').trim();
    expect(headCommitFromFiles(refs)).toBe(head);

    f.git('checkout', '-q', '--detach');
    expect(headCommitFromFiles(refs)).toBe(head);
    f.git('checkout', '-q', 'main');

    f.git('pack-refs', '--all', '--prune');
    expect(headCommitFromFiles(refs)).toBeNull(); // only in packed-refs: git rev-parse answers

    const original = readFileSync(refs.headFile, 'utf8');
    for (const text of ['ref: refs/heads/.invalid\n', 'ref: refs/heads/../../../etc/passwd\n', 'ref: refs/tags/v1\n', 'garbage\n', '']) {
      writeFileSync(refs.headFile, text);
      expect(headCommitFromFiles(refs)).toBeNull();
    }
    writeFileSync(refs.headFile, original);
    expect(headCommitFromFiles({ headFile: path.join(f.dir, 'nope'), headsDir: refs.headsDir })).toBeNull();
  });
});
