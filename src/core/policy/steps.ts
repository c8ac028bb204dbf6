// What a command runs or does besides itself, as found by the wrapper, embedded-command and interpreter tables.
import { skipOptions, type OptionTable } from './options.js';
import type { Arg, Cmd, WriteTarget } from './types.js';

export type Step =
  | { kind: 'inner'; cmd: Cmd }
  /** Shell code given as a string (`eval "…"`, `watch "…"`, `su -c "…"`): parsed and checked like the command. */
  | { kind: 'code'; text: string; dynamic: boolean; via: string }
  | { kind: 'interactive'; via: string }
  | { kind: 'write'; write: WriteTarget }
  /** What runs cannot be known before it runs (`source f`, a command built from a variable): a person decides. */
  | { kind: 'opaque'; why: string }
  /** A stand-in command that means the same (`shutil.rmtree(p)` is `rm -r -f p`). */
  | { kind: 'standin'; cmd: Cmd; equivalent: string }
  /** `env NAME=value cmd`, `sudo NAME=value cmd`: an environment variable set for the inner command. */
  | { kind: 'assign'; name: string; value: Arg };

export function inner(cmd: Cmd, index: number, extra: readonly Arg[] = []): Step[] {
  if (index >= cmd.args.length) return [];
  return [{ kind: 'inner', cmd: { ...cmd, args: [...cmd.args.slice(index), ...extra] } }];
}

export function code(args: readonly Arg[], via: string): Step[] {
  if (args.length === 0) return [];
  return [{ kind: 'code', text: args.map((a) => a.value).join(' '), dynamic: args.some((a) => a.dynamic), via }];
}

export function opaque(why: string): Step[] {
  return [{ kind: 'opaque', why }];
}

/** `NAME=value` words from `from` on; returns the index of the first other word and the assignments found. */
export function assignments(args: readonly Arg[], from: number): { index: number; steps: Step[] } {
  let i = from;
  const steps: Step[] = [];
  while (i < args.length) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(args[i]!.value);
    if (!m) break;
    steps.push({ kind: 'assign', name: m[1]!, value: { ...args[i]!, value: m[2]! } });
    i++;
  }
  return { index: i, steps };
}

/** A wrapper whose options are `table` and whose first operand (after `operandsBefore` others) is the command it runs. */
export function simple(table: OptionTable, operandsBefore = 0, stops: readonly string[] = []) {
  return (cmd: Cmd): Step[] => {
    const { index, stopped } = skipOptions(cmd.args, 1, table, stops);
    return stopped ? [] : inner(cmd, index + operandsBefore);
  };
}

/** Like `simple`, but with no command it starts an interactive shell (`unshare`, `nsenter`). */
export function orShell(table: OptionTable, via: string, stops: readonly string[] = []) {
  return (cmd: Cmd): Step[] => {
    const { index, stopped } = skipOptions(cmd.args, 1, table, stops);
    if (stopped) return [];
    return index < cmd.args.length ? inner(cmd, index) : [{ kind: 'interactive', via }];
  };
}
