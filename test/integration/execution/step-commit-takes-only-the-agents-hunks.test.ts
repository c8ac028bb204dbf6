// Only the agent's hunks are committed: the person's staged and unstaged edits in the same file (an adjacent hunk
// included) stay exactly as they were, untracked files stay untracked; lines both changed are held for the person.
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, type Fixture } from './git-fixture.js';

let fx: Fixture;
afterEach(() => fx.cleanup());

const LINES = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
const text = (lines: string[]): string => `${lines.join('\n')}\n`;
const withLine = (lines: string[], i: number, v: string): string[] => lines.map((l, j) => (j === i ? v : l));

function seed(): void {
  fx.write('a.txt', text(LINES));
  fx.write('b.txt', 'b1\nb2\n');
  fx.git('add', '-A');
  fx.git('commit', '-q', '-m', 'seed');
}

async function commit(base: string, extra: { commitBoth?: boolean } = {}) {
  return fx.ws.commitStep({ runId: 'r', step: 1, summary: 'agent', baseTree: base, allowSecrets: false, ...extra });
}

describe('a step commit takes only the agent’s hunks', () => {
  it('leaves the person’s staged and unstaged hunks of the same file (one right next to the agent’s) and an untracked file as they were', async () => {
    fx = fixture();
    seed();
    // The person: line 2 staged, line 8 unstaged, an untracked file.
    const staged = withLine(LINES, 1, 'line 2 STAGED by the person');
    fx.write('a.txt', text(staged));
    fx.git('add', 'a.txt');
    const person = withLine(staged, 7, 'line 8 UNSTAGED by the person');
    fx.write('a.txt', text(person));
    fx.write('notes.txt', 'the person’s untracked note\n');
    // Compared without context lines: the agent's line 3 is context of the staged hunk once it is committed.
    const stagedDiff = fx.git('diff', '--cached', '-U0');
    const unstagedDiff = fx.git('diff', '-U0');
    const base = await fx.ws.snapshot();

    // The agent: line 3 (right after the person's staged line 2), line 12, and a new line in b.txt.
    const agent = withLine(withLine(person, 2, 'line 3 AGENT'), 11, 'line 12 AGENT');
    fx.write('a.txt', text(agent));
    fx.write('b.txt', 'b1\nb2\nb3 AGENT\n');

    const r = await commit(base);
    expect(r.kind).toBe('committed');
    // The commit holds exactly the agent's lines on top of HEAD.
    expect(fx.git('show', 'HEAD:a.txt')).toBe(text(withLine(withLine(LINES, 2, 'line 3 AGENT'), 11, 'line 12 AGENT')));
    expect(fx.git('show', 'HEAD:b.txt')).toBe('b1\nb2\nb3 AGENT\n');
    const shown = fx.git('show', '--format=', 'HEAD');
    expect(shown).not.toContain('the person');
    // The person's edits: staged exactly as before, unstaged exactly as before, the note untracked; the file on disk
    // is what the agent left (the person's lines and the agent's).
    expect(onlyChanges(fx.git('diff', '--cached', '-U0'))).toEqual(onlyChanges(stagedDiff));
    expect(onlyChanges(fx.git('diff', '-U0'))).toEqual(onlyChanges(unstagedDiff));
    expect(onlyChanges(stagedDiff)).toContain('+line 2 STAGED by the person');
    expect(onlyChanges(unstagedDiff)).toContain('+line 8 UNSTAGED by the person');
    expect(fx.status()).toEqual(['?? notes.txt', 'MM a.txt']);
    expect(fx.read('a.txt')).toBe(text(agent));
  });

  it('an agent hunk on a line the person changed is held as an overlap; nothing is committed and nothing staged changes', async () => {
    fx = fixture();
    seed();
    fx.write('a.txt', text(withLine(LINES, 4, 'line 5 STAGED')));
    fx.git('add', 'a.txt');
    fx.write('a.txt', text(withLine(withLine(LINES, 4, 'line 5 STAGED'), 9, 'line 10 UNSTAGED')));
    const base = await fx.ws.snapshot();
    fx.write('a.txt', text(withLine(withLine(LINES, 4, 'line 5 AGENT'), 9, 'line 10 UNSTAGED')));
    fx.write('b.txt', 'b1\nb2 AGENT\n');
    const head = fx.git('rev-parse', 'HEAD');
    const indexBefore = fx.git('ls-files', '-s');

    expect(await commit(base)).toEqual({ kind: 'overlap', files: ['a.txt'] });
    expect(fx.git('rev-parse', 'HEAD')).toBe(head);
    expect(fx.git('ls-files', '-s')).toBe(indexBefore);
  });

  it('“commit both” commits the overlapping file whole and leaves it neither staged nor unstaged', async () => {
    fx = fixture();
    seed();
    fx.write('a.txt', text(withLine(LINES, 4, 'line 5 PERSON')));
    fx.git('add', 'a.txt');
    const base = await fx.ws.snapshot();
    const agent = text(withLine(withLine(LINES, 4, 'line 5 PERSON and AGENT'), 11, 'line 12 AGENT'));
    fx.write('a.txt', agent);
    fx.write('b.txt', 'b1\nb2 AGENT\n');

    const r = await commit(base, { commitBoth: true });
    expect(r.kind).toBe('committed');
    expect(fx.git('show', 'HEAD:a.txt')).toBe(agent);
    expect(fx.git('show', 'HEAD:b.txt')).toBe('b1\nb2 AGENT\n');
    expect(fx.status()).toEqual([]);
  });

  it('an untracked file of the person’s that the agent edits is an overlap; a file the agent creates is committed', async () => {
    fx = fixture();
    seed();
    fx.write('mine.txt', 'the person’s\n');
    const base = await fx.ws.snapshot();
    fx.write('mine.txt', 'the person’s\nand the agent’s\n');
    expect(await commit(base)).toEqual({ kind: 'overlap', files: ['mine.txt'] });
    fx.write('mine.txt', 'the person’s\n');
    fx.write('new.txt', 'the agent’s\n');
    expect((await commit(base)).kind).toBe('committed');
    expect(fx.commitFiles()).toEqual(['A\tnew.txt']);
    expect(fx.status()).toEqual(['?? mine.txt']);
  });

  it('a rollback restores the agent’s hunks only: the person’s staged and unstaged edits in the same file stay', async () => {
    fx = fixture();
    seed();
    const staged = withLine(LINES, 1, 'line 2 STAGED');
    fx.write('a.txt', text(staged));
    fx.git('add', 'a.txt');
    const person = withLine(staged, 7, 'line 8 UNSTAGED');
    fx.write('a.txt', text(person));
    const stagedDiff = fx.git('diff', '--cached');
    const unstagedDiff = fx.git('diff');
    const base = await fx.ws.snapshot();
    fx.write('a.txt', text(withLine(person, 2, 'line 3 AGENT')));
    fx.write('c.txt', 'new from the agent\n');

    expect(await fx.ws.rollback(base)).toEqual(['a.txt', 'c.txt']);
    expect(fx.read('a.txt')).toBe(text(person));
    expect(fx.exists('c.txt')).toBe(false);
    expect(fx.git('diff', '--cached')).toBe(stagedDiff);
    expect(fx.git('diff')).toBe(unstagedDiff);
  });
});

/** A diff's +/- lines (what changes), without the index line that names blobs. */
function onlyChanges(diff: string): string[] {
  return diff.split('\n').filter((l) => /^[+-]/.test(l) || l.startsWith('@@'));
}
