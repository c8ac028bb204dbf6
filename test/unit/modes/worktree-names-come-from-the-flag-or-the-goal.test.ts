// `--worktree [name]`: the optional name is the next argument unless that is another option; a goal's first words
// make a branch- and path-safe slug; a name given by the person is checked, never rewritten.
import { describe, expect, it } from 'vitest';
import { checkWorktreeName } from '../../../src/adapters/git/run-worktree.js';
import { slugOf } from '../../../src/core/slug.js';
import { takeWorktreeFlag } from '../../../src/modes/worktrees.js';

describe('--worktree [name]', () => {
  it('takes the name that follows, none before another option or at the end, and --worktree=<name>', () => {
    expect(takeWorktreeFlag(['--worktree', 'fix', '--goal', 'g'])).toEqual({
      args: ['--goal', 'g'],
      worktree: { name: 'fix' },
    });
    expect(takeWorktreeFlag(['--worktree', '--goal', 'g'])).toEqual({ args: ['--goal', 'g'], worktree: {} });
    expect(takeWorktreeFlag(['--goal', 'g', '--worktree'])).toEqual({ args: ['--goal', 'g'], worktree: {} });
    expect(takeWorktreeFlag(['--worktree=a.b'])).toEqual({ args: [], worktree: { name: 'a.b' } });
    expect(takeWorktreeFlag(['--goal', 'g'])).toEqual({ args: ['--goal', 'g'], worktree: null });
  });

  it('makes a slug of the goal’s first words, at most 40 characters, "run" when nothing is left', () => {
    expect(slugOf('Add the login page!\nWith tests.')).toBe('add-the-login-page-with-tests');
    expect(slugOf('Fix   ÜBER-bug #12')).toBe('fix-uber-bug-12');
    expect(slugOf('word '.repeat(20))).toBe('word-word-word-word-word-word-word-word');
    expect(slugOf('x'.repeat(50))).toBe('x'.repeat(40));
    expect(slugOf('!!! ???')).toBe('run');
  });

  it('refuses a name git or a path could not take, in one line', () => {
    for (const bad of ['no/slash', 'a b', '-lead', 'a..b', 'x.lock', '', 'dot.'])
      expect(() => checkWorktreeName(bad), bad).toThrow(/^worktree name ".*" is not usable: use letters/);
    expect(checkWorktreeName('Fix_login-2.0a')).toBe('Fix_login-2.0a');
  });
});
