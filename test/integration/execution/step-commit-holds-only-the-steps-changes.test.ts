import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, type Fixture } from './git-fixture.js';

let fx: Fixture;
afterEach(() => fx.cleanup());

const BINARY = Buffer.from([0, 1, 2, 3, 255, 254, 0, 10, 13, 0]);

function seed(): void {
  fx.write('lib.txt', 'lib v1\n');
  fx.write('old.txt', 'to be deleted\n');
  fx.write('from.txt', 'renamed content that is long enough to be detected as a rename\n');
  fx.write('person.txt', 'person v1\n');
  fx.write('shared.txt', 'shared v1\n');
  fx.git('add', '-A');
  fx.git('commit', '-q', '-m', 'seed');
}

describe('step workspace: commit only the step’s changes', () => {
  it('keeps the person’s unstaged and staged changes out of the step commit, and leaves them as they were', async () => {
    fx = fixture();
    seed();
    // The person's work before the step: an unstaged edit, a staged new file, a staged edit, an untracked file.
    fx.write('person.txt', 'person v2 (unstaged)\n');
    fx.write('staged-new.txt', 'staged by the person\n');
    fx.write('shared.txt', 'shared v2 (staged by the person)\n');
    fx.git('add', 'staged-new.txt', 'shared.txt');
    fx.write('notes.txt', 'untracked note\n');
    const statusBefore = fx.status();
    const base = await fx.ws.snapshot();

    // The step: new files (one with spaces, one with glob characters), an edit, a deletion, a rename, a binary file,
    // and agent-collab's own files changing meanwhile.
    fx.write('src/new file.ts', 'export const x = 1;\n');
    fx.write('a[1].txt', 'glob chars\n');
    fx.write('lib.txt', 'lib v2\n');
    fx.remove('old.txt');
    fx.write('to.txt', fx.read('from.txt'));
    fx.remove('from.txt');
    fx.write('img.bin', BINARY);
    fx.write('.agent-collab/state.json', '{"changed":true}\n');

    const changes = await fx.ws.changedSince(base);
    expect(changes.files.sort()).toEqual([
      'a[1].txt',
      'from.txt',
      'img.bin',
      'lib.txt',
      'old.txt',
      'src/new file.ts',
      'to.txt',
    ]);
    expect(changes.patch).toContain('GIT binary patch');
    expect(changes.patch).not.toContain('.agent-collab');

    const result = await fx.ws.commitStep({
      runId: 'run-1',
      step: 1,
      summary: 'Add things',
      baseTree: base,
      allowSecrets: false,
    });
    expect(result.kind).toBe('committed');
    expect(fx.git('rev-parse', 'HEAD').trim()).toBe(result.kind === 'committed' ? result.hash : '');
    expect(fx.commitFiles()).toEqual([
      'A\ta[1].txt',
      'A\timg.bin',
      'A\tsrc/new file.ts',
      'A\tto.txt',
      'D\tfrom.txt',
      'D\told.txt',
      'M\tlib.txt',
    ]);
    expect(fx.git('log', '-1', '--format=%B').trim()).toBe(
      `[Step 1] Add things\n\nAgent-Collab-Run: run-1\nAgent-Collab-Base: ${base}`,
    );
    // Both are git trailers (readable with `git log --format=%(trailers)`).
    expect(fx.git('log', '-1', '--format=%(trailers:only,unfold)').trim()).toBe(
      `Agent-Collab-Run: run-1\nAgent-Collab-Base: ${base}`,
    );
    expect(execFileSync('git', ['cat-file', 'blob', 'HEAD:img.bin'], { cwd: fx.dir })).toEqual(BINARY);

    // Exactly the person's changes are left, staged and unstaged as before.
    expect(statusBefore).toEqual([' M person.txt', '?? notes.txt', 'A  staged-new.txt', 'M  shared.txt']);
    expect(fx.status()).toEqual([...statusBefore, '?? .agent-collab/state.json'].sort());
    expect(fx.git('diff', '--cached', '--name-only').trim().split('\n').sort()).toEqual([
      'shared.txt',
      'staged-new.txt',
    ]);
  });

  it('commits only the step’s line of a file the person had edited before the step, next to the person’s line', async () => {
    fx = fixture();
    seed();
    fx.write('shared.txt', 'shared v2 (person)\n');
    const base = await fx.ws.snapshot();
    fx.write('shared.txt', 'shared v2 (person)\nstep line\n');
    const result = await fx.ws.commitStep({
      runId: 'run-1',
      step: 2,
      summary: 'Edit shared',
      baseTree: base,
      allowSecrets: false,
    });
    expect(result.kind).toBe('committed');
    expect(fx.git('show', 'HEAD:shared.txt')).toBe('shared v1\nstep line\n');
    expect(fx.read('shared.txt')).toBe('shared v2 (person)\nstep line\n');
    expect(fx.status()).toEqual([' M shared.txt']);
  });

  it('reports nothing when the step changed nothing (the person’s own changes do not count)', async () => {
    fx = fixture();
    seed();
    fx.write('person.txt', 'person v2\n');
    fx.write('untracked.txt', 'u\n');
    const base = await fx.ws.snapshot();
    fx.write('.agent-collab/log.md', 'agent-collab writes here\n');
    expect((await fx.ws.changedSince(base)).files).toEqual([]);
    const head = fx.git('rev-parse', 'HEAD');
    expect(await fx.ws.commitStep({ runId: 'r', step: 1, summary: 's', baseTree: base, allowSecrets: false })).toEqual({
      kind: 'nothing',
    });
    expect(fx.git('rev-parse', 'HEAD')).toBe(head);
  });

  it('reports nothing when the step put a file back to HEAD’s content', async () => {
    fx = fixture();
    seed();
    fx.write('lib.txt', 'person edit\n');
    const base = await fx.ws.snapshot();
    fx.write('lib.txt', 'lib v1\n');
    expect((await fx.ws.changedSince(base)).files).toEqual(['lib.txt']);
    expect(await fx.ws.commitStep({ runId: 'r', step: 1, summary: 's', baseTree: base, allowSecrets: false })).toEqual({
      kind: 'nothing',
    });
  });

  it('without a base tree commits every change but agent-collab’s files (the old behaviour)', async () => {
    fx = fixture();
    seed();
    fx.write('person.txt', 'person v2\n');
    fx.write('new.txt', 'new\n');
    fx.write('.agent-collab/plan.md', 'plan\n');
    const result = await fx.ws.commitStep({ runId: 'r', step: 3, summary: 'All', baseTree: null, allowSecrets: false });
    expect(result.kind).toBe('committed');
    expect(fx.commitFiles()).toEqual(['A\tnew.txt', 'M\tperson.txt']);
    expect(fx.status()).toEqual(['?? .agent-collab/plan.md']);
  });

  it('works in a repository with no commits yet', async () => {
    fx = fixture({ commits: false });
    fx.write('mine.txt', 'the person’s file\n');
    const base = await fx.ws.snapshot();
    fx.write('step.txt', 'made by the step\n');
    expect((await fx.ws.changedSince(base)).files).toEqual(['step.txt']);
    const result = await fx.ws.commitStep({
      runId: 'r0',
      step: 1,
      summary: 'First',
      baseTree: base,
      allowSecrets: false,
    });
    expect(result.kind).toBe('committed');
    expect(fx.commitFiles()).toEqual(['A\tstep.txt']);
    expect(fx.status()).toEqual(['?? mine.txt']);
  });

  it('snapshots leave the person’s index alone and skip ignored files', async () => {
    fx = fixture();
    seed();
    fx.write('.gitignore', 'build/\n');
    fx.git('add', '.gitignore');
    fx.git('commit', '-q', '-m', 'ignore');
    fx.write('lib.txt', 'edited\n');
    const indexBefore = fx.git('ls-files', '-s');
    const base = await fx.ws.snapshot();
    fx.write('build/out.js', 'generated\n');
    expect(fx.git('ls-files', '-s')).toBe(indexBefore);
    expect((await fx.ws.changedSince(base)).files).toEqual([]);
    expect(fx.git('ls-tree', '-r', '--name-only', base)).toContain('lib.txt');
  });
});

describe('step workspace: snapshots in a sparse checkout', () => {
  it('a skip-worktree file missing from the disk is not a deletion', async () => {
    fx = fixture();
    seed();
    fx.git('update-index', '--skip-worktree', 'lib.txt');
    fx.remove('lib.txt');
    const base = await fx.ws.snapshot();
    expect(fx.git('ls-tree', '-r', '--name-only', base)).toContain('lib.txt');
    fx.write('new.txt', 'step\n');
    const result = await fx.ws.commitStep({ runId: 'r', step: 1, summary: 'New', baseTree: base, allowSecrets: false });
    expect(result.kind).toBe('committed');
    expect(fx.commitFiles()).toEqual(['A\tnew.txt']);
  });
});

describe('step workspace: a step with more file names than fit on one command line', () => {
  it('commits all of them, with the patch and the person’s staged file as they should be', async () => {
    fx = fixture();
    seed();
    fx.write('staged-new.txt', 'staged by the person\n');
    fx.git('add', 'staged-new.txt');
    const base = await fx.ws.snapshot();
    // 1100 new files with ~130-byte paths: ~145 KB of names, past the 128 KB that go on a command line.
    const dir = `generated/${'d'.repeat(60)}`;
    const names = Array.from(
      { length: 1100 },
      (_, i) => `${dir}/file-${String(i).padStart(4, '0')}-${'x'.repeat(50)}.txt`,
    );
    expect(names.reduce((n, f) => n + f.length + 1, 0)).toBeGreaterThan(128 * 1024);
    for (const [i, name] of names.entries()) fx.write(name, `line ${i}\n`);
    fx.write('lib.txt', 'lib v2\n');

    const result = await fx.ws.commitStep({
      runId: 'r',
      step: 1,
      summary: 'Generate',
      baseTree: base,
      allowSecrets: false,
      allowLarge: true,
    });
    expect(result.kind).toBe('committed');
    if (result.kind !== 'committed') return;
    expect(result.files).toHaveLength(1101);
    expect(fx.commitFiles()).toHaveLength(1101);
    expect(fx.commitFiles()).toContain('M\tlib.txt');
    expect(result.patch).toContain(`+++ b/${names[1099]}`);
    expect(result.patch).toContain('+lib v2');
    expect(fx.status()).toEqual(['A  staged-new.txt']);
  });
});
