import { describe, expect, it } from 'vitest';
import { CommandApprovals, unquoteWord, unwrapShellCommand } from '../../../src/adapters/command-hook/approvals.js';

describe('codex command strings back to what the hook saw', () => {
  it.for([
    [`/bin/bash -lc 'chmod -R 777 d && echo done > f.txt'`, 'chmod -R 777 d && echo done > f.txt'],
    [
      `/bin/bash -lc "printf 'a\\\\nb\\\\n' > notes.txt && cat notes.txt"`,
      `printf 'a\\nb\\n' > notes.txt && cat notes.txt`,
    ],
    [`/bin/zsh -lc 'echo it'\\''s'`, `echo it's`],
    [`bash -c ls`, 'ls'],
    ['git status', 'git status'],
    [`/bin/bash -lc 'unterminated`, `/bin/bash -lc 'unterminated`],
  ] as const)('%s → %s', ([shown, seen], { expect }) => {
    expect(unwrapShellCommand(shown)).toBe(seen);
  });

  it('unquoteWord refuses more than one word', () => {
    expect(unquoteWord(`'a' b`)).toBeNull();
    expect(unquoteWord(`'a'"b"\\ c`)).toBe('ab c');
  });

  it('an approval matches a re-quoted form when no exact form is on record', () => {
    const a = new CommandApprovals();
    a.record(`printf "x y" > f`);
    expect(a.take(`printf 'x y' > f`)).toBe(true);
    expect(a.take(`printf 'x y' > f`)).toBe(false);
  });
});
