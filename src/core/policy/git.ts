// Reading a git command line: global options (`-C dir`, `-c key=value`…), the subcommand and its arguments.
import { GIT_GLOBAL_OPTIONS_WITH_VALUE } from './git-options.js';
import { programName } from './programs.js';
import type { Arg, Cmd } from './types.js';

const GLOBAL_WITH_VALUE = new Set<string>(GIT_GLOBAL_OPTIONS_WITH_VALUE);

export interface GitCall {
  /** The subcommand word (`push`), or null when there is none. */
  sub: string | null;
  /** True when the subcommand (or a global option before it) is computed at run time. */
  unknown: boolean;
  /** The words after the subcommand. */
  rest: Arg[];
  /** `-c key=value` pairs (key lower-cased); `--config-env key=ENV` gives a computed value. */
  configs: Array<{ key: string; value: Arg }>;
  /** `--exec-path=dir`: git looks for its own commands in a directory of the caller's choosing. */
  execPath: boolean;
  /** `--git-dir=dir`: git reads that repository's config, which the command line does not show. */
  gitDir: boolean;
}

function addConfig(call: GitCall, pair: Arg, fromEnv: boolean): void {
  const eq = pair.value.indexOf('=');
  const key = (eq < 0 ? pair.value : pair.value.slice(0, eq)).toLowerCase();
  const value = { ...pair, value: eq < 0 ? 'true' : pair.value.slice(eq + 1), dynamic: pair.dynamic || fromEnv };
  if (pair.dynamic && eq < 0) call.unknown = true;
  call.configs.push({ key, value });
}

export function readGit(cmd: Cmd): GitCall | null {
  if (programName(cmd.args[0]?.value ?? '') !== 'git') return null;
  const args = cmd.args;
  const call: GitCall = { sub: null, unknown: false, rest: [], configs: [], execPath: false, gitDir: false };
  let i = 1;
  while (i < args.length) {
    const arg = args[i]!;
    if (arg.dynamic) {
      call.unknown = true;
      call.rest = args.slice(i + 1);
      return call;
    }
    const v = arg.value;
    if (!v.startsWith('-')) break;
    const eq = v.indexOf('=');
    const attached = v.startsWith('--') && eq > 0;
    const name = attached ? v.slice(0, eq) : v;
    if (name === '--exec-path' && attached) call.execPath = true;
    if (name === '--git-dir') call.gitDir = true;
    if (GLOBAL_WITH_VALUE.has(name)) {
      const value = attached ? { ...arg, value: v.slice(eq + 1) } : args[i + 1];
      if (value && (name === '-c' || name === '--config-env')) addConfig(call, value, name === '--config-env');
      i += attached ? 1 : 2;
      continue;
    }
    i++;
  }
  const sub = args[i];
  if (sub) {
    call.sub = sub.value;
    call.rest = args.slice(i + 1);
  }
  return call;
}

/** The options of a git subcommand as git reads them: `-fu` is `-f -u`; `--for` counts as every option it abbreviates. */
export interface GitArgs {
  long: Set<string>;
  short: Set<string>;
  operands: Arg[];
  /** A word computed at run time that could be an option (before `--`). */
  computed: boolean;
}

export function readGitArgs(
  rest: readonly Arg[],
  withValue: readonly string[] = [],
  longNames: readonly string[] = [],
): GitArgs {
  const out: GitArgs = { long: new Set(), short: new Set(), operands: [], computed: false };
  let operandsOnly = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const v = arg.value;
    if (arg.dynamic || operandsOnly || !v.startsWith('-') || v === '-') {
      if (arg.dynamic && !operandsOnly) out.computed = true;
      out.operands.push(arg);
      continue;
    }
    if (v === '--') {
      operandsOnly = true;
      continue;
    }
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const typed = (eq < 0 ? v : v.slice(0, eq)).slice(2);
      // git accepts unique abbreviations and rejects ambiguous ones; counting every candidate fails closed.
      const full = longNames.filter((l) => typed.length >= 2 && l.startsWith(typed));
      for (const name of full.length > 0 ? full : [typed]) out.long.add(name);
      if (eq < 0 && withValue.includes(`--${typed}`)) i++;
      continue;
    }
    for (let k = 1; k < v.length; k++) {
      out.short.add(v[k]!);
      if (withValue.includes(`-${v[k]}`)) {
        if (k === v.length - 1) i++;
        break;
      }
    }
  }
  return out;
}
