// Issue 18, pure parts of items 9, 12 and 15: [paths] stay inside the repo, agent-collab's merge markers are
// recognised, a merge_conflicts wait is answered through the decisions table, file errors read as one line.
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { conflictRegions, hasMergeConflictMarkers } from '../../../src/core/conflict-markers.js';
import { choicesFor, flagsFor } from '../../../src/core/decisions.js';
import { transition } from '../../../src/core/transition.js';
import type { Awaiting } from '../../../src/core/types.js';
import { configSchema } from '../../../src/persistence/config-schema.js';
import { describeFsError } from '../../../src/persistence/fs-errors.js';
import { checkPathsStayInRepo, resolvePaths } from '../../../src/persistence/paths.js';
import { OPTS, stateIn } from '../../helpers/states.js';
import { tempDir } from '../persistence/tmp-dir.js';

const config = (paths: Record<string, string>) => configSchema.parse({ paths });

describe('[paths] inside the repo', () => {
  it.each([
    ['workdir', { workdir: '../elsewhere' }],
    ['workdir', { workdir: '/etc' }],
    ['workdir', { workdir: '.' }],
    ['plan', { plan: '../../README' }],
    ['comments', { comments: '/tmp/comments.md' }],
    ['log', { log: '../log.md' }],
    ['debug_log', { debug_log: '..' }],
  ])('paths.%s leading out is a config error naming the key (%j)', (key, paths) => {
    expect(() => resolvePaths('/repo', config(paths))).toThrow(new RegExp(`^config error: paths\\.${key} = `));
  });

  it('paths inside are fine: a sub-directory, an absolute path inside, a file in a sub-folder of the work dir', () => {
    expect(resolvePaths('/repo', config({ workdir: 'tmp/collab' })).workdir).toBe(path.resolve('/repo/tmp/collab'));
    expect(resolvePaths('/repo', config({ workdir: '/repo/.ac' })).workdir).toBe(path.resolve('/repo/.ac'));
    expect(resolvePaths('/repo', config({ plan: 'plans/plan.md' })).plan).toBe(
      path.resolve('/repo/.agent-collab/plans/plan.md'),
    );
  });

  it('a link that leads out of the repo is refused; a link inside it is not', async () => {
    const repo = await tempDir();
    const outside = await tempDir();
    symlinkSync(outside, path.join(repo, 'out'));
    const out = config({ workdir: 'out/collab' });
    expect(() => checkPathsStayInRepo(resolvePaths(repo, out), out)).toThrow(/paths\.workdir = "out\/collab"/);
    mkdirSync(path.join(repo, 'real'));
    symlinkSync(path.join(repo, 'real'), path.join(repo, 'in'));
    const inside = config({ workdir: 'in' });
    expect(() => checkPathsStayInRepo(resolvePaths(repo, inside), inside)).not.toThrow();
  });

  it('a dangling link counts by where it points: a plan.md linking to a missing file outside is refused', async () => {
    const repo = await tempDir();
    const outside = await tempDir();
    mkdirSync(path.join(repo, '.agent-collab'));
    symlinkSync(path.join(outside, 'not-yet.md'), path.join(repo, '.agent-collab', 'plan.md'));
    const c = config({});
    expect(() => checkPathsStayInRepo(resolvePaths(repo, c), c)).toThrow(
      /paths\.plan = "plan\.md" leads to .*not-yet\.md/,
    );
  });
});

describe('merge conflict markers', () => {
  it('finds the markers of agent-collab’s own merge, not other mentions of <<<<<<<', () => {
    expect(hasMergeConflictMarkers("a\n<<<<<<< your edit\nx\n=======\ny\n>>>>>>> agent's version\n")).toBe(true);
    expect(hasMergeConflictMarkers('a\r\n<<<<<<< your edit\r\nb')).toBe(true);
    expect(hasMergeConflictMarkers("only the end\n>>>>>>> agent's version")).toBe(true);
    expect(hasMergeConflictMarkers('Resolve `<<<<<<< HEAD` blocks in src/a.ts')).toBe(false);
    expect(hasMergeConflictMarkers('<<<<<<< HEAD\nx\n>>>>>>> main')).toBe(false);
  });
});

describe('the conflicts still in a file (what the TUI dialog shows)', () => {
  it('each block from its opening marker to its closing one; a stray marker alone; none once resolved', () => {
    const text = [
      'Intro.',
      '<<<<<<< your edit',
      'mine',
      '=======',
      'theirs',
      ">>>>>>> agent's version",
      'Middle, <<<<<<< only mentioned.',
      ">>>>>>> agent's version",
      'End.',
    ].join('\n');
    expect(conflictRegions(text)).toEqual([
      ['<<<<<<< your edit', 'mine', '=======', 'theirs', ">>>>>>> agent's version"],
      [">>>>>>> agent's version"],
    ]);
    expect(conflictRegions('Intro.\nmine\nEnd.\n')).toEqual([]);
  });
});

describe('the merge_conflicts wait', () => {
  const w: Awaiting = {
    kind: 'merge_conflicts',
    file: 'plan',
    role: 'planner',
    action: { kind: 'respond' },
    text: 'agent',
    yours: 'mine',
    conflicts: 2,
  };

  it('offers edit (TUI only), resolved, keep-mine and keep-agent; headless gets the flags', () => {
    expect(choicesFor(w).map((c) => c.id)).toEqual(['edit', 'resolved', 'keep-mine', 'keep-agent']);
    expect(flagsFor(w)).toBe('--decide resolved | keep-mine | keep-agent');
  });

  it('an answer resumes the round with the side or the file; "edit" keeps waiting', () => {
    const s = stateIn('REVIEW', { awaiting: w });
    const mine = transition(s, { type: 'decide', on: 'merge_conflicts', choice: 'keep-mine' }, OPTS);
    expect(mine.state.awaiting).toBeNull();
    expect(mine.state.inflight).toEqual({ kind: 'respond' });
    expect(mine.effects).toContainEqual(
      expect.objectContaining({ type: 'resolve_conflicts', choice: 'keep-mine', yours: 'mine' }),
    );
    const edit = transition(s, { type: 'decide', on: 'merge_conflicts', choice: 'edit' }, OPTS);
    expect(edit.state.awaiting).toEqual(w);
    expect(edit.effects).toEqual([]);
  });
});

describe('file errors the person can fix', () => {
  const err = (code: string, syscall: string, p?: string) =>
    Object.assign(new Error(`${code}: x`), { code, syscall, ...(p && { path: p }) });

  it.each([
    ['EACCES', /may not write or read \/w\/state\.json; fix its permissions/],
    ['EPERM', /may not change \/w\/state\.json/],
    ['EROFS', /\/w\/state\.json is on a read-only file system/],
    ['EISDIR', /\/w\/state\.json is a directory where agent-collab expects a file; move it aside/],
    ['ENOTDIR', /a part of \/w\/state\.json is a file where agent-collab expects a directory/],
  ])('%s is one line naming the path and what to do', (code, says) => {
    const line = describeFsError(err(code, 'open', '/w/state.json'));
    expect(line).toMatch(says);
    expect(line).toContain(`(open failed with ${code})`);
    expect(line).not.toContain('\n');
  });

  it('names the file it is told when the error has no path; anything else is not one of them', () => {
    expect(describeFsError(err('EISDIR', 'read'), '/w/state.json')).toMatch(/^\/w\/state\.json is a directory/);
    expect(describeFsError(err('ENOENT', 'open', '/x'))).toBeNull();
    expect(describeFsError(new Error('boom'))).toBeNull();
  });
});
