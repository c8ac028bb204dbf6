// Programs that run a command given inside one of their options or their script, and shell built-ins that
// change what runs later: `make --eval`, `vim -c '!…'`, `sed 's/…/…/e'`, `tar --checkpoint-action=exec=…`,
// `trap '…' EXIT`, `alias`, `source`, `at`. Also programs that write a file named in their arguments (`tee`,
// `dd of=`, `cp x /dev/sda`), so that write rules see those targets. git has its own table (embedded-git.ts).
import { gitSteps } from './embedded-git.js';
import { makefileFromInput, TOOLS } from './embedded-tools.js';
import { skipOptions } from './options.js';
import { programName } from './programs.js';
import { sedSteps } from './sed.js';
import { code, opaque, type Step } from './steps.js';
import type { Arg, Cmd } from './types.js';

const asArg = (arg: Arg, value: string): Arg => ({ ...arg, value });

/** `make --eval=TEXT`: recipe lines (after a tab, or after `target: ;`) and `$(shell …)` are shell code. */
/** Recipe lines of makefile text (after a tab, or after `target: ;`) and its `$(shell …)` calls. */
function recipes(text: string, dynamic: boolean, via = 'make --eval'): Step[] {
  const steps: Step[] = [];
  for (const line of text.split('\n')) {
    const recipe = /^\t[@+-]*(.*)$/.exec(line)?.[1] ?? /^[^:=#]+:[^=;]*;[@+-]*(.*)$/.exec(line)?.[1];
    if (recipe) steps.push({ kind: 'code', text: recipe, dynamic, via });
  }
  for (const s of text.matchAll(/\$[({]shell\s+([^)}]*)[)}]/g)) steps.push({ kind: 'code', text: s[1]!, dynamic, via });
  return steps;
}

function make(cmd: Cmd): Step[] {
  const steps: Step[] = makefileFromInput(cmd, (text, dynamic) => recipes(text, dynamic, 'make -f (its input)'));
  cmd.args.forEach((a, i) => {
    const m = /^(?:--eval=|-E)(.+)$/s.exec(a.value);
    const given = m ? asArg(a, m[1]!) : a.value === '--eval' || a.value === '-E' ? cmd.args[i + 1] : undefined;
    if (given) {
      steps.push(...recipes(given.value, given.dynamic));
      if (given.dynamic) steps.push(...opaque('the makefile text given to make --eval is computed at run time'));
    }
    if (/^(SHELL|\.SHELLFLAGS|MAKESHELL)=/.test(a.value))
      steps.push(...opaque(`make ${a.value.split('=')[0]}= changes the shell every recipe runs with`));
  });
  return steps;
}

/** Ex commands that reach the shell: `!cmd`, `:r !cmd`, `:w !cmd`, `%!cmd`, `system('cmd')`, `:sh`, `:terminal`. */
function exSteps(command: Arg, via: string): Step[] {
  const steps: Step[] = [];
  for (const part of command.value.split(/\s*\|\s*(?![^(]*\))/)) {
    const bang = /^[\s:]*(?:silent!?\s*)?(?:[%.$,'\w]*\s*)?(?:r(?:ead)?|w(?:rite)?)?\s*!(.*)$/s.exec(part);
    if (bang) steps.push({ kind: 'code', text: bang[1]!, dynamic: command.dynamic, via });
    if (/^[\s:]*(sh(ell)?|term(inal)?)\b/.test(part)) steps.push({ kind: 'interactive', via });
  }
  for (const m of command.value.matchAll(/\bsystem(?:list)?\s*\(\s*(['"])(.*?)\1\s*\)/g))
    steps.push({ kind: 'code', text: m[2]!, dynamic: command.dynamic, via });
  const scripted = /\b(system(list)?|jobstart|termopen|execute|luaeval|py3?eval|perl|ruby|lua|py3?)\s*[(\s]/;
  if (steps.length === 0 && scripted.test(command.value))
    steps.push(...opaque(`${via} runs editor script that can start programs`));
  return steps;
}

function vim(cmd: Cmd): Step[] {
  const steps: Step[] = [];
  cmd.args.forEach((a, i) => {
    const via = `${programName(cmd.args[0]!.value)} ${a.value.startsWith('+') ? '+' : a.value}`;
    const next = cmd.args[i + 1];
    if ((a.value === '-c' || a.value === '--cmd') && next) steps.push(...exSteps(next, via));
    else if (a.value.startsWith('+') && a.value.length > 1) steps.push(...exSteps(asArg(a, a.value.slice(1)), via));
    else if ((a.value === '-S' || a.value === '-s' || a.value === '-u') && next)
      steps.push(...opaque(`${via} runs the editor commands in ${next.value}`));
  });
  return steps;
}

/** tar options that run a program: checkpoint actions, compressors, volume scripts, --to-command. */
function tar(cmd: Cmd): Step[] {
  const steps: Step[] = [];
  const RUNS =
    /^--(checkpoint-action|to-command|use-compress-program|info-script|new-volume-script|rsh-command|rmt-command)=(.*)$/s;
  cmd.args.forEach((a, i) => {
    const m = RUNS.exec(a.value);
    if (m) {
      const text = m[1] === 'checkpoint-action' ? /^exec=(.*)$/s.exec(m[2]!)?.[1] : m[2];
      if (text !== undefined) steps.push({ kind: 'code', text, dynamic: a.dynamic, via: `tar --${m[1]}` });
    }
    const separate = ['-I', '-F', '--to-command', '--use-compress-program', '--info-script', '--new-volume-script'];
    if (separate.includes(a.value) && cmd.args[i + 1]) steps.push(...code([cmd.args[i + 1]!], `tar ${a.value}`));
  });
  return steps;
}

/** `rsync -e 'cmd'` / `--rsh=cmd`: the "remote shell" runs here. */
function rsync(cmd: Cmd): Step[] {
  const steps: Step[] = [];
  cmd.args.forEach((a, i) => {
    const m = /^--rsh=(.*)$/s.exec(a.value);
    if (m) steps.push({ kind: 'code', text: m[1]!, dynamic: a.dynamic, via: 'rsync --rsh' });
    else if ((a.value === '-e' || a.value === '--rsh') && cmd.args[i + 1])
      steps.push(...code([cmd.args[i + 1]!], 'rsync -e'));
  });
  return [...steps, ...deviceWrites(cmd)];
}

function trap(cmd: Cmd): Step[] {
  const { index, stopped } = skipOptions(cmd.args, 1, {}, ['-l', '-p']);
  const operands = cmd.args.slice(index);
  const action = operands[0];
  if (stopped || !action || operands.length < 2 || action.value === '-' || action.value === '') return [];
  return code([action], 'trap');
}

/** `alias name='…'`: the text is checked, and later commands named `name` mean something else: a person decides. */
function alias(cmd: Cmd): Step[] {
  const steps: Step[] = [];
  for (const a of cmd.args.slice(1)) {
    const eq = a.value.indexOf('=');
    if (eq <= 0) continue;
    steps.push({ kind: 'code', text: a.value.slice(eq + 1), dynamic: a.dynamic, via: 'alias' });
    steps.push(...opaque(`alias ${a.value.slice(0, eq)} changes what that name runs in later commands`));
  }
  return steps;
}

function source(cmd: Cmd): Step[] {
  const file = cmd.args[1];
  return file ? opaque(`${cmd.args[0]!.value} runs the commands in ${file.value} in this shell`) : [];
}

/** Scheduling commands to run later (`at`, `batch`, `crontab`): they would never pass this check. */
function schedules(cmd: Cmd): Step[] {
  const program = programName(cmd.args[0]!.value);
  const rest = cmd.args.slice(1);
  if (rest.some((a) => /^-[lVh]$|^--(list|version|help)$/.test(a.value))) return [];
  if (program === 'crontab' && rest.some((a) => a.value === '-r')) return [];
  return opaque(`${program} schedules commands that run later, unchecked`);
}

function write(op: string, target: Arg, text: string): Step {
  return { kind: 'write', write: { op, target: target.value, dynamic: target.dynamic, text } };
}

function tee(cmd: Cmd): Step[] {
  const { index } = skipOptions(cmd.args, 1, { withValue: ['--output-error'] });
  return cmd.args.slice(index).map((a) => write('tee', a, `tee ${a.value}`));
}

function dd(cmd: Cmd): Step[] {
  return cmd.args
    .slice(1)
    .flatMap((a) => (a.value.startsWith('of=') ? [write('dd of=', asArg(a, a.value.slice(3)), `dd ${a.value}`)] : []));
}

/** `cp img /dev/sda`, `shred /dev/sda`: a destination under /dev/ (every operand, for shred) is written. */
function deviceWrites(cmd: Cmd, every = false): Step[] {
  const program = programName(cmd.args[0]!.value);
  const operands = cmd.args.slice(1).filter((a) => a.dynamic || !a.value.startsWith('-'));
  return (every ? operands : operands.slice(-1))
    .filter((t) => t.value.startsWith('/dev/'))
    .map((t) => write(program, t, `${program} ${t.value}`));
}

export const EMBEDDED: Readonly<Record<string, (cmd: Cmd) => Step[]>> = {
  ...TOOLS,
  git: gitSteps,
  make,
  gmake: make,
  vim,
  vi: vim,
  nvim: vim,
  ex: vim,
  view: vim,
  vimdiff: vim,
  sed: sedSteps,
  gsed: sedSteps,
  tar,
  gtar: tar,
  bsdtar: tar,
  rsync,
  zip: (cmd) => {
    const i = cmd.args.findIndex((a) => a.value === '-TT' || a.value === '--unzip-command');
    return i < 0 ? [] : code(cmd.args.slice(i + 1, i + 2), 'zip -TT');
  },
  trap,
  alias,
  source,
  '.': source,
  hash: (cmd) => (cmd.args.some((a) => a.value === '-p') ? opaque('hash -p changes which program a name runs') : []),
  enable: (cmd) => (cmd.args.some((a) => a.value === '-f') ? opaque('enable -f loads a built-in from a file') : []),
  at: schedules,
  batch: schedules,
  crontab: schedules,
  tee,
  dd,
  cp: (cmd) => deviceWrites(cmd),
  mv: (cmd) => deviceWrites(cmd),
  install: (cmd) => deviceWrites(cmd),
  ddrescue: (cmd) => deviceWrites(cmd),
  shred: (cmd) => deviceWrites(cmd, true),
  truncate: (cmd) => deviceWrites(cmd, true),
  fallocate: (cmd) => deviceWrites(cmd, true),
};
