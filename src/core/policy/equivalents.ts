// Commands that do the same as a rule's command in another form. Each gets a stand-in command that rules are
// matched against too: every recursive deletion is checked as `rm -r -f <paths>`, every way of giving a file
// mode 777 as `chmod 777 <files>`. The stand-in's words all point at the whole original command, so the
// "matched" text a person sees is what the agent wrote.
import { readOptions, skipOptions } from './options.js';
import { modeIs777, optionsOf, programName } from './programs.js';
import type { Arg, Cmd } from './types.js';

export interface Equivalent {
  cmd: Cmd;
  /** Shown after the matched command, e.g. "a recursive deletion, checked as rm -r -f /". */
  equivalent: string;
}

export function standIn(cmd: Cmd, words: Array<string | Arg>, what: string): Equivalent {
  const first = cmd.args[0]!;
  const last = cmd.args[cmd.args.length - 1]!;
  const args = words.map((w) =>
    typeof w === 'string'
      ? { value: w, dynamic: false, start: first.start, end: last.end }
      : { ...w, start: first.start, end: last.end },
  );
  const shown = words.map((w) => (typeof w === 'string' ? w : w.value)).join(' ');
  return { cmd: { ...cmd, args }, equivalent: `${what}, checked as ${shown}` };
}

const deletion = (cmd: Cmd, paths: readonly Arg[]): Equivalent =>
  standIn(cmd, ['rm', '-r', '-f', ...paths], 'a recursive deletion');

/** Programs that delete whatever they are given, when run on every file `find` finds. */
const DELETERS = new Set(['rm', 'unlink', 'rmdir', 'shred', 'srm', 'trash', 'trash-put', 'rimraf']);

/** `find`'s starting points: the words before the first test or action (after -H/-L/-P/-D x/-Olevel). */
function findStarts(args: readonly Arg[]): Arg[] {
  const { index } = skipOptions(args, 1, { withValue: ['-D'] });
  const starts: Arg[] = [];
  for (const a of args.slice(index)) {
    if (!a.dynamic && /^[-(!]/.test(a.value)) break;
    starts.push(a);
  }
  return starts;
}

/** `-name '*.tmp'`, `-path './build/*.o'`…: a test that picks some files by name, not every file. */
function selectsByName(args: readonly Arg[]): boolean {
  return args.some((a, i) => {
    const pattern = args[i + 1];
    if (!/^-(name|iname|path|ipath|wholename|iwholename|regex|iregex)$/.test(a.value) || !pattern) return false;
    return !pattern.dynamic && !/^(\*|\.\*|\*\*?\/?\*?|\.?\/?\*)$/.test(pattern.value);
  });
}

function find(cmd: Cmd): Equivalent[] {
  const args = cmd.args;
  const deletes = args.some((a, i) => {
    if (a.dynamic) return false;
    if (a.value === '-delete') return true;
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(a.value)) return false;
    const inner = args[i + 1];
    if (inner === undefined || !DELETERS.has(programName(inner.value))) return false;
    // `find . -name '*.tmp' -exec rm -f {} \;` deletes the files a name selects, one by one: not a tree. With no
    // such selection (or with `rm -r`) it empties the whole tree, like `rm -rf`.
    if (!/^(rm|unlink)$/.test(programName(inner.value)) || !selectsByName(args)) return true;
    const end = args.findIndex((x, k) => k > i && (x.value === ';' || x.value === '+'));
    const rmArgs = args.slice(i + 2, end < 0 ? undefined : end);
    return rmArgs.some((x) => x.dynamic || /^-[^-]*[rR]|^--recursive$/.test(x.value));
  });
  if (!deletes) return [];
  const starts = findStarts(args);
  return [deletion(cmd, starts.length > 0 ? starts : [{ ...args[0]!, value: '.', dynamic: false }])];
}

function rm(cmd: Cmd): Equivalent[] {
  const read = readOptions(cmd.args.slice(1), optionsOf('rm'));
  // `rm -r` without -f: nobody is at a terminal to answer rm's questions, so it deletes the same.
  if (!read.options.has('--recursive') || read.options.has('--force')) return [];
  return [
    deletion(
      cmd,
      read.operands.map((o) => o.arg),
    ),
  ];
}

/** `install -m 777 src dest`, `mkdir -m 777 dir`, `mkdir --mode=a+rwx dir`: a mode 777 set another way. */
function modeOption(cmd: Cmd): Equivalent[] {
  const args = cmd.args;
  for (let i = 1; i < args.length; i++) {
    const v = args[i]!.value;
    const attached = /^(?:--mode=|-m)(.+)$/s.exec(v);
    const valueArg = attached
      ? { ...args[i]!, value: attached[1]! }
      : v === '-m' || v === '--mode'
        ? args[i + 1]
        : null;
    if (!valueArg) continue;
    if (modeIs777(valueArg.value) || valueArg.dynamic) {
      const files = args.slice(i + (attached ? 1 : 2)).filter((a) => a.dynamic || !a.value.startsWith('-'));
      return [
        standIn(cmd, ['chmod', valueArg.dynamic ? valueArg : '777', ...files.slice(-1)], 'a file mode set on creation'),
      ];
    }
  }
  return [];
}

/** `rsync -a --chmod=a+rwx src dest`: the mode of what rsync writes. */
function rsyncChmod(cmd: Cmd): Equivalent[] {
  const chmod = cmd.args.find((a) => a.value.startsWith('--chmod='));
  if (!chmod) return [];
  const modes = chmod.value.slice('--chmod='.length).replace(/(^|,)[DF]/g, '$1');
  if (!modeIs777(modes) && !chmod.dynamic) return [];
  return [standIn(cmd, ['chmod', '777', ...cmd.args.slice(-1)], 'a file mode set on copy')];
}

/** `rsync -a --delete empty/ /`: whatever the source lacks is deleted from the destination, recursively. */
function rsyncDelete(cmd: Cmd): Equivalent[] {
  const deletes = cmd.args.some((a) => /^--(del|delete(-.*)?|remove-source-files)$/.test(a.value));
  if (!deletes) return [];
  const operands = cmd.args.slice(1).filter((a) => a.dynamic || !a.value.startsWith('-'));
  return operands.length > 0 ? [deletion(cmd, operands.slice(-1))] : [];
}

const TABLE: Readonly<Record<string, (cmd: Cmd) => Equivalent[]>> = {
  rm,
  find,
  rimraf: (cmd) => [
    deletion(
      cmd,
      cmd.args.slice(1).filter((a) => a.dynamic || !a.value.startsWith('-')),
    ),
  ],
  srm: (cmd) => (cmd.args.some((a) => /^-\w*r/.test(a.value)) ? [deletion(cmd, cmd.args.slice(1))] : []),
  install: modeOption,
  mkdir: modeOption,
  mkfifo: modeOption,
  rsync: (cmd) => [...rsyncChmod(cmd), ...rsyncDelete(cmd)],
};

export function equivalents(cmd: Cmd): Equivalent[] {
  const program = programName(cmd.args[0]?.value ?? '');
  return Object.hasOwn(TABLE, program) ? TABLE[program]!(cmd) : [];
}
