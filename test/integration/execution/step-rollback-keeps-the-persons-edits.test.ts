import { afterEach, describe, expect, it } from 'vitest';
import { fixture, type Fixture } from './git-fixture.js';

let fx: Fixture;
afterEach(() => fx.cleanup());

describe('step workspace: rollback', () => {
  it('restores changed and deleted files, removes added ones, and keeps what the person had changed before', async () => {
    fx = fixture();
    fx.write('lib.txt', 'lib v1\n');
    fx.write('gone.txt', 'deleted by the step\n');
    fx.write('from.txt', 'renamed by the step\n');
    fx.write('shared.txt', 'shared v1\n');
    fx.git('add', '-A');
    fx.git('commit', '-q', '-m', 'seed');
    // The person's work before the step.
    fx.write('README.md', '# person edit (unstaged)\n');
    fx.write('shared.txt', 'shared v2 (person, staged)\n');
    fx.git('add', 'shared.txt');
    fx.write('notes.txt', 'person’s untracked note\n');
    const statusBefore = fx.status();
    const indexBefore = fx.git('ls-files', '-s');
    const base = await fx.ws.snapshot();

    // The step.
    fx.write('lib.txt', 'lib v2\n');
    fx.remove('gone.txt');
    fx.write('to.txt', fx.read('from.txt'));
    fx.remove('from.txt');
    fx.write('shared.txt', 'shared v3 (step)\n');
    fx.write('notes.txt', 'step overwrote the note\n');
    fx.write('new dir/deep/new file.txt', 'added by the step\n');
    fx.write('added.txt', 'added by the step\n');
    fx.write('.agent-collab/state.json', '{}\n');

    const restored = await fx.ws.rollback(base);
    expect(restored).toEqual([
      'added.txt',
      'from.txt',
      'gone.txt',
      'lib.txt',
      'new dir/deep/new file.txt',
      'notes.txt',
      'shared.txt',
      'to.txt',
    ]);
    expect(fx.read('lib.txt')).toBe('lib v1\n');
    expect(fx.read('gone.txt')).toBe('deleted by the step\n');
    expect(fx.read('from.txt')).toBe('renamed by the step\n');
    expect(fx.exists('to.txt')).toBe(false);
    expect(fx.exists('added.txt')).toBe(false);
    expect(fx.exists('new dir')).toBe(false);
    // The person's changes are back exactly as they were: content, staging, untracked files.
    expect(fx.read('README.md')).toBe('# person edit (unstaged)\n');
    expect(fx.read('shared.txt')).toBe('shared v2 (person, staged)\n');
    expect(fx.read('notes.txt')).toBe('person’s untracked note\n');
    expect(fx.git('ls-files', '-s')).toBe(indexBefore);
    expect(fx.status()).toEqual([...statusBefore, '?? .agent-collab/state.json'].sort());
    expect(fx.read('.agent-collab/state.json')).toBe('{}\n');
  });

  it('rolling back a step that changed nothing does nothing', async () => {
    fx = fixture();
    fx.write('mine.txt', 'person\n');
    const base = await fx.ws.snapshot();
    expect(await fx.ws.rollback(base)).toEqual([]);
    expect(fx.read('mine.txt')).toBe('person\n');
  });

  it('keeps a directory that still holds other files', async () => {
    fx = fixture();
    fx.write('dir/kept.txt', 'kept\n');
    const base = await fx.ws.snapshot();
    fx.write('dir/added.txt', 'added\n');
    expect(await fx.ws.rollback(base)).toEqual(['dir/added.txt']);
    expect(fx.read('dir/kept.txt')).toBe('kept\n');
    expect(fx.exists('dir/added.txt')).toBe(false);
  });
});
