// Commands that run another command: `sudo rm …`, `env X=1 rm …`, `xargs rm …`, `find … -exec rm … +`,
// `timeout 5 rm …`, `eval "…"`, `watch "…"`. `unwrap` returns what each one runs.
import { skipOptions, type OptionTable } from './options.js';
import { programName } from './programs.js';
import type { Arg, Cmd, WriteTarget } from './types.js';

export type Step =
  | { kind: 'inner'; cmd: Cmd }
  /** Shell code given as a string (`eval "…"`, `watch "…"`, `su -c "…"`): parsed and checked like the command. */
  | { kind: 'code'; text: string; dynamic: boolean; via: string }
  | { kind: 'interactive'; via: string }
  | { kind: 'write'; write: WriteTarget };

function inner(cmd: Cmd, index: number): Step[] {
  return index < cmd.args.length ? [{ kind: 'inner', cmd: { ...cmd, args: cmd.args.slice(index) } }] : [];
}

function code(args: readonly Arg[], via: string): Step[] {
  if (args.length === 0) return [];
  return [{ kind: 'code', text: args.map((a) => a.value).join(' '), dynamic: args.some((a) => a.dynamic), via }];
}

function skipAssignments(args: readonly Arg[], from: number): number {
  let i = from;
  while (i < args.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[i]!.value)) i++;
  return i;
}

/** A wrapper whose options are `table` and whose first operand is the command it runs. */
function simple(table: OptionTable, operandsBefore = 0, stops: readonly string[] = []) {
  return (cmd: Cmd): Step[] => {
    const { index, stopped } = skipOptions(cmd.args, 1, table, stops);
    return stopped ? [] : inner(cmd, index + operandsBefore);
  };
}

const SUDO: OptionTable = {
  withValue: [
    '-u',
    '--user',
    '-g',
    '--group',
    '-p',
    '--prompt',
    '-C',
    '--close-from',
    '-D',
    '--chdir',
    '-r',
    '--role',
    '-t',
    '--type',
    '-T',
    '--command-timeout',
    '-U',
    '--other-user',
    '-R',
    '--chroot',
    '--host',
  ],
};

function sudo(cmd: Cmd): Step[] {
  const { index, stopped, seen } = skipOptions(cmd.args, 1, SUDO, [
    '-e',
    '--edit',
    '-l',
    '--list',
    '-v',
    '--validate',
    '-k',
    '-K',
    '--remove-timestamp',
    '-V',
    '--version',
    '-h',
    '--help',
  ]);
  if (stopped) return [];
  const at = skipAssignments(cmd.args, index);
  if (at < cmd.args.length) return inner(cmd, at);
  return seen.has('-s') || seen.has('--shell') || seen.has('-i') || seen.has('--login')
    ? [{ kind: 'interactive', via: programName(cmd.args[0]!.value) }]
    : [];
}

function su(cmd: Cmd): Step[] {
  const args = cmd.args;
  for (let i = 1; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '-c' || v === '--command' || v === '--session-command')
      return args[i + 1] ? code([args[i + 1]!], 'su -c') : [];
    const eq = /^--(command|session-command)=(.*)$/s.exec(v);
    if (eq) return [{ kind: 'code', text: eq[2] ?? '', dynamic: args[i]!.dynamic, via: 'su -c' }];
  }
  return [{ kind: 'interactive', via: 'su' }];
}

const ENV: OptionTable = { withValue: ['-u', '--unset', '-C', '--chdir', '-S', '--split-string', '-P'] };

function env(cmd: Cmd): Step[] {
  const args = cmd.args;
  for (let i = 1; i < args.length; i++) {
    const v = args[i]!.value;
    const split = /^(?:-S|--split-string)(?:=?)(.*)$/s.exec(v);
    if (split && (split[1] || args[i + 1])) {
      const head = split[1] ? [{ ...args[i]!, value: split[1] }] : [args[i + 1]!];
      return code([...head, ...args.slice(i + (split[1] ? 1 : 2))], 'env -S');
    }
    if (!v.startsWith('-') || v === '--') break;
  }
  const { index } = skipOptions(args, 1, ENV);
  return inner(cmd, skipAssignments(args, index));
}

function find(cmd: Cmd): Step[] {
  const steps: Step[] = [];
  const args = cmd.args;
  for (let i = 1; i < args.length; i++) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(args[i]!.value)) continue;
    let end = i + 1;
    while (end < args.length && args[end]!.value !== ';' && args[end]!.value !== '+') end++;
    if (end > i + 1) steps.push({ kind: 'inner', cmd: { ...cmd, args: args.slice(i + 1, end) } });
    i = end;
  }
  return steps;
}

function watch(cmd: Cmd): Step[] {
  const { index, seen } = skipOptions(cmd.args, 1, { withValue: ['-n', '--interval', '-q', '--equexit'] });
  return seen.has('-x') || seen.has('--exec') ? inner(cmd, index) : code(cmd.args.slice(index), 'watch');
}

function flock(cmd: Cmd): Step[] {
  const { index } = skipOptions(cmd.args, 1, { withValue: ['-w', '--timeout', '-E', '--conflict-exit-code'] });
  const next = cmd.args[index + 1];
  if (next && (next.value === '-c' || next.value === '--command'))
    return code(cmd.args.slice(index + 2, index + 3), 'flock -c');
  return inner(cmd, index + 1);
}

function tee(cmd: Cmd): Step[] {
  const { index } = skipOptions(cmd.args, 1, { withValue: ['--output-error'] });
  return cmd.args
    .slice(index)
    .map((a) => ({ kind: 'write', write: { op: 'tee', target: a.value, dynamic: a.dynamic, text: `tee ${a.value}` } }));
}

function dd(cmd: Cmd): Step[] {
  return cmd.args.slice(1).flatMap((a): Step[] =>
    a.value.startsWith('of=')
      ? [
          {
            kind: 'write',
            write: { op: 'dd of=', target: a.value.slice(3), dynamic: a.dynamic, text: `dd ${a.value}` },
          },
        ]
      : [],
  );
}

const WRAPPERS: Readonly<Record<string, (cmd: Cmd) => Step[]>> = {
  sudo,
  doas: (cmd) => {
    const { index, seen } = skipOptions(cmd.args, 1, { withValue: ['-u', '-C'] });
    if (index < cmd.args.length) return inner(cmd, index);
    return seen.has('-s') ? [{ kind: 'interactive', via: 'doas -s' }] : [];
  },
  su,
  pkexec: (cmd) => {
    const { index } = skipOptions(cmd.args, 1, { withValue: ['--user'] }, ['--version', '--help']);
    return index < cmd.args.length ? inner(cmd, index) : [{ kind: 'interactive', via: 'pkexec' }];
  },
  run0: (cmd) => {
    const { index } = skipOptions(cmd.args, 1, {
      withValue: [
        '-u',
        '--user',
        '-g',
        '--group',
        '--nice',
        '-D',
        '--chdir',
        '--setenv',
        '--property',
        '--description',
        '--slice',
        '--unit',
        '--machine',
      ],
    });
    return index < cmd.args.length ? inner(cmd, index) : [{ kind: 'interactive', via: 'run0' }];
  },
  env,
  nohup: simple({}),
  time: simple({ withValue: ['-f', '--format', '-o', '--output'] }),
  nice: simple({ withValue: ['-n', '--adjustment'] }),
  timeout: simple({ withValue: ['-s', '--signal', '-k', '--kill-after'] }, 1),
  command: simple({}, 0, ['-v', '-V']),
  builtin: simple({}),
  exec: simple({ withValue: ['-a'] }),
  stdbuf: simple({ withValue: ['-i', '-o', '-e', '--input', '--output', '--error'] }),
  ionice: simple({ withValue: ['-c', '--class', '-n', '--classdata'] }, 0, [
    '-p',
    '--pid',
    '-P',
    '--pgid',
    '-u',
    '--uid',
  ]),
  taskset: (cmd) => {
    const { index, seen } = skipOptions(cmd.args, 1, {});
    return seen.has('-p') || seen.has('--pid') ? [] : inner(cmd, index + 1);
  },
  setsid: simple({}),
  unbuffer: simple({}),
  busybox: simple({}),
  chroot: (cmd) => {
    const { index } = skipOptions(cmd.args, 1, { withValue: ['--groups', '--userspec'] });
    return index + 1 < cmd.args.length ? inner(cmd, index + 1) : [{ kind: 'interactive', via: 'chroot' }];
  },
  xargs: simple({
    withValue: [
      '-a',
      '--arg-file',
      '-d',
      '--delimiter',
      '-E',
      '-I',
      '-L',
      '-n',
      '--max-args',
      '-P',
      '--max-procs',
      '-s',
      '--max-chars',
      '--process-slot-var',
    ],
  }),
  find,
  eval: (cmd) => code(cmd.args.slice(1), 'eval'),
  watch,
  flock,
  tee,
  dd,
};

/** What `cmd` runs besides itself; empty for an ordinary command. */
export function unwrap(cmd: Cmd): Step[] {
  const program = programName(cmd.args[0]?.value ?? '');
  return Object.hasOwn(WRAPPERS, program) ? WRAPPERS[program]!(cmd) : [];
}
