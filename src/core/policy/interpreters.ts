// Shells and language interpreters: does this invocation run a given script or code string, or does it wait
// for commands typed later (a REPL, or commands on stdin) that no hook would ever see?
import { skipOptions, type OptionTable } from './options.js';
import type { Arg } from './types.js';

interface Interpreter {
  shell?: boolean;
  /** Options whose presence means "runs this code" (`-e`, `-m`, `--test`). */
  code?: readonly string[];
  interactive?: readonly string[];
  /** Options that print something and exit (`--version`). */
  info?: readonly string[];
  withValue?: readonly string[];
  /** A REPL whatever the arguments (irb, ghci), unless `code` or `info` options say otherwise. */
  alwaysInteractive?: boolean;
  /** `deno repl`, `bun repl`; `deno` alone is a REPL too (`bareIsRepl`). */
  replSubcommand?: string;
  bareIsRepl?: boolean;
  /** `bun` alone prints help. */
  bareRunsNothing?: boolean;
}

const SHELL: Interpreter = {
  shell: true,
  interactive: ['-i', '--interactive'],
  info: ['--version', '--help'],
  withValue: ['-o', '-O', '--rcfile', '--init-file', '--init-command'],
};
const INFO = ['-V', '-v', '--version', '-h', '--help'];
const NODE: Interpreter = {
  code: ['-e', '--eval', '-p', '--print', '--test', '--run', '-c', '--check'],
  interactive: ['-i', '--interactive'],
  info: ['-v', '--version', '-h', '--help', '--v8-options'],
  withValue: [
    '-e',
    '--eval',
    '-p',
    '--print',
    '--run',
    '-r',
    '--require',
    '--import',
    '--loader',
    '--experimental-loader',
    '-C',
    '--conditions',
    '--input-type',
    '--env-file',
    '--title',
  ],
};
const PYTHON: Interpreter = {
  code: ['-c', '-m'],
  interactive: ['-i'],
  info: ['-V', '--version', '-h', '--help', '-?'],
  withValue: ['-c', '-m', '-W', '-X', '-Q'],
};

const TABLE: Readonly<Record<string, Interpreter>> = {
  ...Object.fromEntries(
    ['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'rbash', 'fish', 'csh', 'tcsh'].map((n) => [
      n,
      SHELL,
    ]),
  ),
  ...Object.fromEntries(['node', 'nodejs', 'tsx', 'ts-node'].map((n) => [n, NODE])),
  ipython: { ...PYTHON, bareIsRepl: true },
  ruby: { code: ['-e'], info: INFO, withValue: ['-e', '-r', '-I', '-C', '-E'] },
  irb: { alwaysInteractive: true, info: INFO },
  pry: { alwaysInteractive: true, info: INFO },
  perl: { code: ['-e', '-E'], info: INFO, withValue: ['-e', '-E'] },
  php: {
    code: ['-r', '-f', '-S'],
    interactive: ['-a'],
    info: [...INFO, '-i', '-m'],
    withValue: ['-r', '-f', '-S', '-t', '-c', '-d', '-z'],
  },
  lua: { code: ['-e'], interactive: ['-i'], info: INFO, withValue: ['-e', '-l'] },
  luajit: { code: ['-e'], interactive: ['-i'], info: INFO, withValue: ['-e', '-l', '-j', '-O', '-b'] },
  julia: {
    code: ['-e', '--eval', '-E', '--print'],
    interactive: ['-i'],
    info: INFO,
    withValue: [
      '-e',
      '--eval',
      '-E',
      '--print',
      '-L',
      '--load',
      '-p',
      '--procs',
      '-t',
      '--threads',
      '-J',
      '--sysimage',
      '-C',
    ],
  },
  ghci: { alwaysInteractive: true, code: ['-e'], info: ['--version', '--help'], withValue: ['-e'] },
  jshell: { alwaysInteractive: true, info: ['--version', '--help', '-h'] },
  iex: { alwaysInteractive: true, info: ['--version', '-v', '--help', '-h'] },
  tclsh: {},
  wish: {},
  R: { code: ['-e', '-f', '--file'], info: ['--version', '--help', '-h'], withValue: ['-e', '-f'] },
  deno: { replSubcommand: 'repl', bareIsRepl: true, info: INFO },
  bun: { replSubcommand: 'repl', bareRunsNothing: true, info: INFO },
};

export function isShell(program: string): boolean {
  return interpreterOf(program)?.shell === true;
}

function interpreterOf(program: string): Interpreter | null {
  if (/^(python(\d+(\.\d+)*)?|pypy\d?)$/.test(program)) return PYTHON;
  return Object.hasOwn(TABLE, program) ? TABLE[program]! : null;
}

export type InterpreterUse =
  | { kind: 'runs' }
  /** A REPL or an interactive shell: whatever is typed into it later is never checked. */
  | { kind: 'interactive' }
  /** Reads its program from stdin: fine when stdin is a heredoc or a file, a REPL when it is a terminal. */
  | { kind: 'reads-stdin'; shell: boolean }
  /** `bash -c '<code>'`: the code is shell to check too. */
  | { kind: 'shell-code'; code: Arg };

/** null when `program` is neither a shell nor an interpreter we know. `args[0]` is the program word. */
export function interpreterUse(program: string, args: readonly Arg[]): InterpreterUse | null {
  const it = interpreterOf(program);
  if (!it) return null;
  const table: OptionTable = { withValue: it.withValue ?? [] };
  const { index, seen } = skipOptions(args, 1, table);
  const has = (list: readonly string[] | undefined) => (list ?? []).some((o) => seen.has(o));
  const operand = args[index];
  if (has(it.info)) return { kind: 'runs' };
  if (it.shell) {
    if (seen.has('-c') || seen.has('--command'))
      return operand ? { kind: 'shell-code', code: operand } : { kind: 'runs' };
    if (seen.has('-s')) return { kind: 'reads-stdin', shell: true };
    if (operand) return { kind: 'runs' };
    return has(it.interactive) ? { kind: 'interactive' } : { kind: 'reads-stdin', shell: true };
  }
  if (has(it.interactive)) return { kind: 'interactive' };
  if (has(it.code)) return { kind: 'runs' };
  if (it.alwaysInteractive) return { kind: 'interactive' };
  if (it.replSubcommand && operand?.value === it.replSubcommand) return { kind: 'interactive' };
  if (operand && operand.value !== '-') return { kind: 'runs' };
  if (!operand && it.bareIsRepl) return { kind: 'interactive' };
  if (!operand && it.bareRunsNothing) return { kind: 'runs' };
  return { kind: 'reads-stdin', shell: false };
}
