// What the matcher knows about particular programs: option spellings, options that take a value,
// and programs that count as the same one for a rule.
import type { OptionTable } from './options.js';
import { GIT_GLOBAL_OPTIONS_WITH_VALUE } from './git-options.js';

/** The program a command word names: `/usr/bin/sudo` → `sudo`. */
export function programName(word: string): string {
  const base = word.slice(word.lastIndexOf('/') + 1);
  return base === '' ? word : base;
}

/** A rule naming the first program of a group matches every program of the group. */
const SAME_AS: Readonly<Record<string, readonly string[]>> = {
  sudo: ['sudo', 'doas', 'su', 'pkexec', 'run0', 'sudoedit'],
};

export function programMatches(ruleProgram: string, commandProgram: string): boolean {
  return ruleProgram === commandProgram || (SAME_AS[ruleProgram]?.includes(commandProgram) ?? false);
}

const RECURSIVE_FORCE = {
  '-r': '--recursive',
  '-R': '--recursive',
  '-f': '--force',
};

/** chmod's options; chown and chgrp add the ones about symlinks and the current owner. */
const CHANGE_MODE: OptionTable = {
  synonyms: { '-R': '--recursive', '-f': '--silent', '--quiet': '--silent', '-c': '--changes', '-v': '--verbose' },
  long: [
    'changes',
    'silent',
    'quiet',
    'verbose',
    'no-preserve-root',
    'preserve-root',
    'reference',
    'recursive',
    'help',
    'version',
  ],
};

const OWNERSHIP: OptionTable = {
  synonyms: { ...CHANGE_MODE.synonyms, '-h': '--no-dereference' },
  long: [...(CHANGE_MODE.long ?? []), 'dereference', 'no-dereference', 'from'],
};

export const PROGRAM_OPTIONS: Readonly<Record<string, OptionTable>> = {
  rm: {
    synonyms: { ...RECURSIVE_FORCE, '-i': '--interactive', '-d': '--dir', '-v': '--verbose' },
    long: [
      'force',
      'interactive',
      'one-file-system',
      'no-preserve-root',
      'preserve-root',
      'recursive',
      'dir',
      'verbose',
      'help',
      'version',
    ],
  },
  cp: {
    synonyms: {
      ...RECURSIVE_FORCE,
      '-a': '--archive',
      '-i': '--interactive',
      '-n': '--no-clobber',
      '-t': '--target-directory',
      '-S': '--suffix',
    },
    withValue: ['-t', '-S'],
    long: [
      'archive',
      'attributes-only',
      'backup',
      'copy-contents',
      'dereference',
      'force',
      'interactive',
      'link',
      'no-clobber',
      'no-dereference',
      'no-preserve',
      'no-target-directory',
      'one-file-system',
      'parents',
      'preserve',
      'recursive',
      'reflink',
      'remove-destination',
      'sparse',
      'strip-trailing-slashes',
      'suffix',
      'symbolic-link',
      'target-directory',
      'update',
      'verbose',
      'help',
      'version',
    ],
  },
  chmod: CHANGE_MODE,
  chown: OWNERSHIP,
  chgrp: OWNERSHIP,
  git: {
    // Global options that take a value (`git -C dir push`), and `-f` is `--force` in every git command that has it.
    withValue: [...GIT_GLOBAL_OPTIONS_WITH_VALUE],
    synonyms: { '-f': '--force' },
  },
  npm: {
    withValue: [
      '--prefix',
      '--registry',
      '-w',
      '--workspace',
      '--userconfig',
      '--globalconfig',
      '--cache',
      '--loglevel',
      '--otp',
      '--tag',
      '--access',
      '-C',
    ],
  },
};

export function optionsOf(program: string): OptionTable {
  return PROGRAM_OPTIONS[program] ?? {};
}

/** `chmod` modes: `0777` and `1777` (special bits aside) are `777`; so is any symbolic mode giving everyone rwx. */
export function normalizeOperand(program: string, value: string): string {
  if (program !== 'chmod') return value;
  if (modeIs777(value)) return '777';
  return /^0*[0-7]{1,4}$/.test(value) ? value.replace(/^0+/, '').padStart(4, '0').slice(-3) : value;
}

/**
 * `777`, `0777`, `2777`, `a+rwx`, `ugo=rwx`, `u=rwx,g=rwx,o=rwx`, `+rwx`, `a=rwX`, `u=rwx,go=u`: every class ends
 * with read, write and execute. Symbolic clauses are applied in order (`-` takes away, `=` sets, `g=u` copies).
 */
export function modeIs777(mode: string): boolean {
  if (/^0*[0-7]{1,4}$/.test(mode)) return mode.replace(/^0+/, '').padStart(4, '0').slice(-3) === '777';
  const perms: Record<string, Set<string>> = { u: new Set(), g: new Set(), o: new Set() };
  for (const clause of mode.split(',')) {
    const m = /^([ugoa]*)((?:[-+=](?:[ugo]|[rwxXst]*))+)$/.exec(clause);
    if (!m) return false;
    const who = m[1] === '' || m[1]!.includes('a') ? 'ugo' : m[1]!;
    for (const [, op, given] of m[2]!.matchAll(/([-+=])([ugo]|[rwxXst]*)/g)) {
      for (const w of who) {
        const set = perms[w]!;
        const letters = /^[ugo]$/.test(given!) ? [...perms[given!]!] : [...given!].map((p) => (p === 'X' ? 'x' : p));
        if (op === '=') set.clear();
        for (const p of letters) {
          if (op === '-') set.delete(p);
          else set.add(p);
        }
      }
    }
  }
  return Object.values(perms).every((set) => ['r', 'w', 'x'].every((p) => set.has(p)));
}
