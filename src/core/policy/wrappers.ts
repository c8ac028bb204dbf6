// Commands that run another command: `sudo rm …`, `env X=1 rm …`, `xargs rm …`, `find … -exec rm … +`,
// `timeout 5 rm …`, `eval "…"`, `watch "…"`. `unwrap` returns what each one runs.
import { EMBEDDED } from './embedded.js';
import { skipOptions, type OptionTable } from './options.js';
import { programName } from './programs.js';
import { RUNNERS } from './runners.js';
import { assignments, code, inner, simple, type Step } from './steps.js';
import type { Arg, Cmd } from './types.js';

export type { Step } from './steps.js';

/** The words xargs adds to the command: known only at run time. */
function input(cmd: Cmd): Arg {
  const last = cmd.args[cmd.args.length - 1]!;
  return { value: '<input>', dynamic: true, start: last.end, end: last.end };
}

/** In `xargs -I{} cmd {}` and `find -exec cmd {} +` the placeholder stands for run-time input. */
function withPlaceholder(args: readonly Arg[], placeholder: string): Arg[] {
  return args.map((a) => (a.value.includes(placeholder) ? { ...a, dynamic: true } : a));
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
  const { index: at, steps } = assignments(cmd.args, index);
  if (at < cmd.args.length) return [...steps, ...inner(cmd, at)];
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
  const { index: at, steps } = assignments(args, index);
  return [...steps, ...inner(cmd, at)];
}

function find(cmd: Cmd): Step[] {
  const steps: Step[] = [];
  const args = cmd.args;
  for (let i = 1; i < args.length; i++) {
    // `-fprint FILE`, `-fls FILE`…: find writes (truncates) that file.
    const file = /^-(fprint|fprint0|fprintf|fls)$/.test(args[i]!.value) ? args[i + 1] : undefined;
    if (file) {
      const write = {
        op: args[i]!.value,
        target: file.value,
        dynamic: file.dynamic,
        text: `find ${args[i]!.value} ${file.value}`,
      };
      steps.push({ kind: 'write', write });
    }
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(args[i]!.value)) continue;
    let end = i + 1;
    while (end < args.length && args[end]!.value !== ';' && args[end]!.value !== '+') end++;
    // A found path starts with its starting point (`./x`), never with `-`: `{}` cannot turn into options, like
    // a glob that cannot (`rm -f {}` is not `rm -rf`). A `{}` inside a longer word still can.
    const found = withPlaceholder(args.slice(i + 1, end), '{}').map((a, k) =>
      k > 0 && a.value === '{}' ? { ...a, glob: true } : a,
    );
    if (end > i + 1) steps.push({ kind: 'inner', cmd: { ...cmd, args: found } });
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

const XARGS: OptionTable = {
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
    '--replace',
  ],
};

/** xargs runs its command with words read from its input: appended, or in place of `-I {}`. */
function xargs(cmd: Cmd): Step[] {
  const { index, values, seen } = skipOptions(cmd.args, 1, XARGS);
  const replace = values.find((v) => v.option === '-I' || v.option === '--replace')?.value.value;
  const placeholder = replace ?? (seen.has('-i') ? '{}' : null);
  if (index >= cmd.args.length) return [];
  if (placeholder === null) return inner(cmd, index, [input(cmd)]);
  return [{ kind: 'inner', cmd: { ...cmd, args: withPlaceholder(cmd.args.slice(index), placeholder) } }];
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
  toybox: simple({}),
  rlwrap: simple({
    withValue: ['-a', '-b', '-C', '-D', '-e', '-f', '-g', '-H', '-I', '-l', '-O', '-p', '-P', '-q', '-S', '-w', '-z'],
  }),
  proot: simple({
    withValue: [
      '-r',
      '-R',
      '-S',
      '-b',
      '-m',
      '-w',
      '-q',
      '-k',
      '--rootfs',
      '--bind',
      '--cwd',
      '--qemu',
      '--kernel-release',
    ],
  }),
  chpst: simple({
    withValue: ['-u', '-U', '-b', '-e', '-/', '-C', '-n', '-l', '-L', '-m', '-d', '-o', '-p', '-f', '-c', '-r', '-t'],
  }),
  chroot: (cmd) => {
    const { index } = skipOptions(cmd.args, 1, { withValue: ['--groups', '--userspec'] });
    return index + 1 < cmd.args.length ? inner(cmd, index + 1) : [{ kind: 'interactive', via: 'chroot' }];
  },
  xargs,
  find,
  eval: (cmd) => code(cmd.args.slice(1), 'eval'),
  watch,
  flock,
  ...RUNNERS,
};

/** What `cmd` runs besides itself; empty for an ordinary command. */
export function unwrap(cmd: Cmd): Step[] {
  const program = programName(cmd.args[0]?.value ?? '');
  if (Object.hasOwn(WRAPPERS, program)) return WRAPPERS[program]!(cmd);
  return Object.hasOwn(EMBEDDED, program) ? EMBEDDED[program]!(cmd) : [];
}
