// Tools with their own command language that can reach the shell: debuggers (`gdb -ex 'shell …'`), `expect`,
// `emacs --eval`, database shells (`sqlite3 '.shell …'`, `psql -c '\! …'`), `less '+!…'`, `ed`'s `!` commands,
// and `make -f /dev/stdin`. The shell part is checked when it can be read, otherwise a person decides.
import { code, opaque, type Step } from './steps.js';
import type { Arg, Cmd } from './types.js';

/** The value of `opt VALUE` / `opt=VALUE` for each option in `names`. */
function optionValues(cmd: Cmd, names: readonly string[]): Arg[] {
  const values: Arg[] = [];
  cmd.args.forEach((a, i) => {
    const eq = a.value.indexOf('=');
    if (eq > 0 && names.includes(a.value.slice(0, eq))) values.push({ ...a, value: a.value.slice(eq + 1) });
    else if (names.includes(a.value) && cmd.args[i + 1]) values.push(cmd.args[i + 1]!);
  });
  return values;
}

function gdb(cmd: Cmd): Step[] {
  const steps: Step[] = [];
  for (const v of optionValues(cmd, ['-ex', '--ex', '-iex', '--iex', '-eval-command', '--eval-command'])) {
    const shell = /^\s*(?:shell|!)\s*(.*)$/s.exec(v.value)?.[1];
    if (shell !== undefined) steps.push({ kind: 'code', text: shell, dynamic: v.dynamic, via: 'gdb shell' });
    else if (v.dynamic || /^\s*(pipe|\||python|py|pi|guile|gu|source|call|print|p)\b/.test(v.value))
      steps.push(...opaque(`gdb runs "${v.value}", which can start programs`));
  }
  if (optionValues(cmd, ['-x', '--command', '-ix', '--init-command']).length > 0)
    steps.push(...opaque('gdb runs the commands in a script file that cannot be checked here'));
  return steps;
}

/** Lines of an ed script that start with `!` run shell commands. */
function ed(cmd: Cmd): Step[] {
  const stdin = cmd.stdin;
  if (stdin === null) return [];
  if (stdin.kind === 'file' || stdin.dynamic) return opaque('ed runs an editing script that can start programs');
  return stdin.text.split('\n').flatMap((line) => {
    const bang = /^\s*(?:[\d,.$;]*\s*(?:r|w|e|E)?\s*)!(.*)$/.exec(line)?.[1];
    return bang === undefined ? [] : code([{ value: bang, dynamic: false, start: 0, end: 0 }], 'ed !');
  });
}

function sqlite(cmd: Cmd): Step[] {
  const steps: Step[] = [];
  for (const a of cmd.args.slice(1)) {
    for (const m of a.value.matchAll(/(?:^|\n|;)\s*\.(?:shell|system)\s+([^\n]*)/g))
      steps.push({ kind: 'code', text: m[1]!, dynamic: a.dynamic, via: 'sqlite3 .shell' });
    if (a.dynamic || /(^|\n)\s*\.(once|output|read|load)\b/.test(a.value))
      steps.push(...opaque('sqlite3 dot-commands can run programs or load code'));
  }
  return steps;
}

function psql(cmd: Cmd): Step[] {
  return optionValues(cmd, ['-c', '--command']).flatMap((v) => {
    const m = /\\!\s*(.*)$/s.exec(v.value);
    if (m) return [{ kind: 'code', text: m[1]!, dynamic: v.dynamic, via: 'psql \\!' } as Step];
    return v.dynamic ? opaque('psql runs a command computed at run time') : [];
  });
}

/** `less '+!cmd'`, `less '+|cmd'`: commands typed at less's prompt, given on its command line. */
function less(cmd: Cmd): Step[] {
  return cmd.args.slice(1).flatMap((a) => {
    const m = /^\+\+?[^!|]*[!|](.*)$/s.exec(a.value);
    return m ? [{ kind: 'code', text: m[1]!, dynamic: a.dynamic, via: 'less +!' } as Step] : [];
  });
}

/** `make -f /dev/stdin <<< '…'`, `make -f -`: the makefile is the input, its recipes are shell code. */
export function makefileFromInput(cmd: Cmd, recipes: (text: string, dynamic: boolean) => Step[]): Step[] {
  const files = optionValues(cmd, ['-f', '--file', '--makefile']);
  if (!files.some((f) => f.dynamic || /^(-|\/dev\/stdin|\/dev\/fd\/\d+|\/proc\/self\/fd\/\d+)$/.test(f.value)))
    return [];
  const stdin = cmd.stdin;
  if (stdin === null || stdin.kind === 'file' || files.some((f) => f.dynamic))
    return opaque('make reads a makefile only known at run time');
  return recipes(stdin.text, stdin.dynamic);
}

export const TOOLS: Readonly<Record<string, (cmd: Cmd) => Step[]>> = {
  gdb,
  ed,
  red: ed,
  sqlite3: sqlite,
  sqlite: sqlite,
  psql,
  less,
  more: less,
  expect: (cmd) =>
    cmd.args.slice(1).some((a) => /^(-v|--version|-h|--help)$/.test(a.value))
      ? []
      : opaque('expect runs a script that can spawn any program'),
  emacs: (cmd) =>
    cmd.args.some((a) => /^--?(eval|load|l|funcall|f|script|batch|x)(=|$)/.test(a.value))
      ? opaque('emacs runs Lisp code that can start programs')
      : [],
};
