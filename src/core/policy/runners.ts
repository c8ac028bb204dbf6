// More commands that run another command given as their arguments: schedulers and limits (chrt, prlimit,
// setpriv, unshare, nsenter…), tracers (strace, valgrind), remote shells (ssh), job runners (parallel) and
// package runners (npx, uv run, bundle exec…). Each returns what it runs, so that the inner command is judged.
import { skipOptions, type OptionTable } from './options.js';
import { assignments, code, inner, opaque, orShell, simple, type Step } from './steps.js';
import type { Cmd } from './types.js';

function chrt(cmd: Cmd): Step[] {
  const table = { withValue: ['-T', '--sched-runtime', '-P', '--sched-period', '-D', '--sched-deadline'] };
  const { index, stopped } = skipOptions(cmd.args, 1, table, ['-p', '--pid', '-m', '--max']);
  if (stopped) return [];
  // `chrt [options] <priority> <command>`.
  const prio = cmd.args[index];
  return inner(cmd, prio && /^\d+$/.test(prio.value) ? index + 1 : index);
}

const SETPRIV: OptionTable = {
  withValue: [
    '--ruid',
    '--euid',
    '--reuid',
    '--rgid',
    '--egid',
    '--regid',
    '--groups',
    '--inh-caps',
    '--ambient-caps',
    '--bounding-set',
    '--securebits',
    '--pdeathsig',
    '--selinux-label',
    '--apparmor-profile',
    '--landlock-access',
    '--landlock-rule',
    '--seccomp-filter',
  ],
};

const UNSHARE: OptionTable = {
  withValue: [
    '-S',
    '--setuid',
    '-G',
    '--setgid',
    '-R',
    '--root',
    '-w',
    '--wd',
    '--map-user',
    '--map-group',
    '--map-users',
    '--map-groups',
    '--propagation',
    '--setgroups',
    '--monotonic',
    '--boottime',
  ],
};

const STRACE: OptionTable = {
  withValue: ['-e', '-o', '-s', '-u', '-a', '-I', '-b', '-O', '-S', '-P', '-E', '-X', '-U', '--output', '--user'],
};

/** `script -c 'cmd'` runs shell code; `script` alone records an interactive shell. */
function script(cmd: Cmd): Step[] {
  const { values, seen } = skipOptions(cmd.args, 1, {
    withValue: ['-c', '--command', '-E', '--echo', '-I', '--log-in', '-O', '--log-out', '-B', '--log-io', '-T'],
  });
  const c = values.find((v) => v.option === '-c' || v.option === '--command');
  if (c) return code([c.value], 'script -c');
  const info = ['-V', '--version', '-h', '--help'].some((o) => seen.has(o));
  return info ? [] : [{ kind: 'interactive', via: 'script' }];
}

const PARALLEL: OptionTable = {
  withValue: [
    '-j',
    '--jobs',
    '-I',
    '--replace',
    '-S',
    '--sshlogin',
    '-a',
    '--arg-file',
    '--colsep',
    '-d',
    '--delimiter',
    '-E',
    '-n',
    '--max-args',
    '-N',
    '--delay',
    '--timeout',
    '--joblog',
    '--results',
    '--tmpdir',
    '--env',
    '--tag-string',
    '--workdir',
    '--wd',
  ],
};

/**
 * GNU parallel: the words before `:::` are a command template run through the shell; `{}` is an input value.
 * With no template, each input value is itself a command line.
 */
function parallel(cmd: Cmd): Step[] {
  const { index } = skipOptions(cmd.args, 1, PARALLEL);
  const args = cmd.args.slice(index);
  const sep = args.findIndex((a) => /^:::+\+?$/.test(a.value));
  const template = sep < 0 ? args : args.slice(0, sep);
  if (template.length > 0)
    return code(
      template.map((a) => (a.value.includes('{') ? { ...a, dynamic: true } : a)),
      'parallel',
    );
  if (sep < 0) return opaque('parallel runs the command lines it reads from its input');
  return args.slice(sep + 1).flatMap((a) => (/^:::/.test(a.value) ? [] : code([a], 'parallel')));
}

const SSH: OptionTable = {
  withValue: [
    '-b',
    '-c',
    '-D',
    '-E',
    '-e',
    '-F',
    '-I',
    '-i',
    '-J',
    '-L',
    '-l',
    '-m',
    '-O',
    '-o',
    '-p',
    '-Q',
    '-R',
    '-S',
    '-W',
    '-w',
    '-B',
  ],
};

/**
 * `ssh host cmd…`: the words after the host are shell code run there; `-o ProxyCommand=…` runs here. A login
 * with no command runs on the other host only, so it is left to the person's rules (`ssh -T git@github.com`).
 */
function ssh(cmd: Cmd): Step[] {
  const { index, values } = skipOptions(cmd.args, 1, SSH);
  const steps: Step[] = [];
  for (const v of values.filter((x) => x.option === '-o')) {
    const m = /^\s*(ProxyCommand|LocalCommand|KnownHostsCommand|RemoteCommand)\s*[= ]\s*(.*)$/is.exec(v.value.value);
    if (m) steps.push({ kind: 'code', text: m[2]!, dynamic: v.value.dynamic, via: `ssh -o ${m[1]}` });
  }
  const remote = cmd.args.slice(index + 1);
  if (remote.length > 0) steps.push(...code(remote, 'ssh (on the remote host)'));
  return steps;
}

/** `coproc cmd`, `coproc NAME { cmd; }` (the parser gives the words of the body's first command as arguments). */
function coproc(cmd: Cmd): Step[] {
  let i = 1;
  if (cmd.args[i + 1] && /^[{(]$/.test(cmd.args[i + 1]!.value)) i++;
  while (cmd.args[i] && /^[{(]$/.test(cmd.args[i]!.value)) i++;
  return inner(cmd, i);
}

/** `runuser -u user -- cmd`, `runuser user -c 'cmd'`. */
function runuser(cmd: Cmd): Step[] {
  const table = {
    withValue: ['-u', '--user', '-g', '--group', '-G', '--supp-group', '-c', '--command', '-s', '--shell'],
  };
  const { index, values } = skipOptions(cmd.args, 1, table);
  const c = values.find((v) => v.option === '-c' || v.option === '--command');
  if (c) return code([c.value], 'runuser -c');
  const at = values.some((v) => v.option === '-u' || v.option === '--user') ? index : index + 1;
  return at < cmd.args.length ? inner(cmd, at) : [{ kind: 'interactive', via: 'runuser' }];
}

/** `sg group -c 'cmd'` / `sg group cmd`. */
function sg(cmd: Cmd): Step[] {
  const rest = cmd.args.slice(2);
  if (rest[0]?.value === '-c') return code(rest.slice(1, 2), 'sg -c');
  return rest.length > 0 ? code(rest, 'sg') : [{ kind: 'interactive', via: 'sg' }];
}

/** `npx [-y] [-p pkg] cmd…` and `npx -c 'cmd'`: runs a package's program. */
function npx(cmd: Cmd): Step[] {
  const table = { withValue: ['-p', '--package', '-c', '--call', '--registry', '--cache', '-w', '--workspace'] };
  const { index, values } = skipOptions(cmd.args, 1, table);
  const c = values.find((v) => v.option === '-c' || v.option === '--call');
  return c ? code([c.value], 'npx -c') : inner(cmd, index);
}

/** `uv run cmd`, `poetry run cmd`, `bundle exec cmd`, `npm exec -- cmd`…: `<program> <sub> [options] cmd`. */
function subcommand(subs: readonly string[], withValue: readonly string[] = []) {
  return (cmd: Cmd): Step[] => {
    const at = cmd.args.findIndex((a, i) => i > 0 && !a.value.startsWith('-'));
    if (at < 0 || !subs.includes(cmd.args[at]!.value)) return [];
    const { index, values } = skipOptions(cmd.args, at + 1, { withValue: [...withValue, '-c', '--call'] });
    const c = values.find((v) => v.option === '-c' || v.option === '--call');
    return c ? code([c.value], `${cmd.args[0]!.value} ${cmd.args[at]!.value} -c`) : inner(cmd, index);
  };
}

/** `ip netns exec NAME cmd`, `ip vrf exec NAME cmd`. */
function ip(cmd: Cmd): Step[] {
  const words = cmd.args.map((a) => a.value);
  const at = words.findIndex((w, i) => i > 0 && w === 'exec' && /^(netns|vrf)$/.test(words[i - 1] ?? ''));
  return at < 0 ? [] : inner(cmd, at + 2);
}

/** `nix-shell --run 'cmd'` / `--command 'cmd'`. */
function nixShell(cmd: Cmd): Step[] {
  const i = cmd.args.findIndex((a) => a.value === '--run' || a.value === '--command');
  return i < 0 ? [] : code(cmd.args.slice(i + 1, i + 2), 'nix-shell --run');
}

function crossEnv(cmd: Cmd): Step[] {
  const { index, steps } = assignments(cmd.args, 1);
  return [...steps, ...inner(cmd, index)];
}

function afterDashDash(cmd: Cmd): Step[] {
  const dash = cmd.args.findIndex((a) => a.value === '--');
  return dash < 0 ? [] : inner(cmd, dash + 1);
}

export const RUNNERS: Readonly<Record<string, (cmd: Cmd) => Step[]>> = {
  chrt,
  setpriv: simple(SETPRIV, 0, ['-d', '--dump']),
  prlimit: simple({ withValue: ['-o', '--output'] }, 0, ['-p', '--pid']),
  unshare: orShell(UNSHARE, 'unshare'),
  nsenter: orShell({ withValue: ['-t', '--target', '-S', '--setuid', '-G', '--setgid', '-r', '-w'] }, 'nsenter'),
  strace: simple(STRACE, 0, ['-p', '--attach', '-c']),
  ltrace: simple(STRACE, 0, ['-p']),
  valgrind: simple({}),
  catchsegv: simple({}),
  script,
  parallel,
  ssh,
  coproc,
  runuser,
  sg,
  'systemd-run': simple({
    withValue: ['-p', '--property', '-E', '--setenv', '-u', '--unit', '-M', '--machine', '--uid', '--gid', '--nice'],
  }),
  firejail: simple({}),
  faketime: simple({ withValue: ['-m', '-p', '-f'] }, 1),
  proxychains: simple({ withValue: ['-f'] }),
  proxychains4: simple({ withValue: ['-f'] }),
  torsocks: simple({ withValue: ['-u', '-p', '-a', '-P'] }),
  'xvfb-run': simple({
    withValue: ['-n', '--server-num', '-f', '--auth-file', '-s', '--server-args', '-e', '-p', '-w'],
  }),
  'dbus-run-session': simple({ withValue: ['--config-file', '--dbus-daemon'] }),
  numactl: simple({ withValue: ['-C', '--cpunodebind', '-N', '-m', '--membind', '-p', '--preferred', '-i', '-P'] }),
  cgexec: simple({ withValue: ['-g'] }),
  npx,
  pnpx: npx,
  bunx: npx,
  uvx: npx,
  'cross-env': crossEnv,
  dotenv: afterDashDash,
  entr: simple({}),
  uv: subcommand(['run'], ['--with', '--python', '-p', '--directory', '--project', '--env-file']),
  poetry: subcommand(['run']),
  pipenv: subcommand(['run']),
  pdm: subcommand(['run']),
  bundle: subcommand(['exec']),
  npm: subcommand(['exec', 'x'], ['-w', '--workspace', '-p', '--package']),
  pnpm: subcommand(['exec', 'dlx'], ['-C', '--dir', '--filter', '--package']),
  yarn: subcommand(['exec', 'dlx'], ['-p', '--package']),
  ip,
  'nix-shell': nixShell,
};
