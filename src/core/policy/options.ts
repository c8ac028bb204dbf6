// Reading a command's options the way getopt does: short clusters (`-rf`), long options (`--force`,
// `--user=x`, unique abbreviations like `--rec`), options that take a value, and `--`.
import type { Arg } from './types.js';

export interface OptionTable {
  /** Options that take a value in the next word unless attached (`-u root`, `-uroot`, `--user root`). */
  withValue?: readonly string[];
  /** Spellings of one option: every key means the same as its value, e.g. `-R` → `--recursive`. */
  synonyms?: Readonly<Record<string, string>>;
  /** Long options of the program, so that a unique abbreviation (`--rec`) counts as the full name. */
  long?: readonly string[];
}

export function isOption(arg: Arg): boolean {
  return !arg.dynamic && arg.value.length > 1 && arg.value.startsWith('-');
}

/** The canonical name of one option spelling (`-R` → `--recursive` for rm; `--for` → `--force`). */
export function canonical(option: string, table: OptionTable): string {
  let name = option;
  if (name.startsWith('--') && table.long && !table.long.includes(name.slice(2))) {
    const hits = table.long.filter((l) => l.startsWith(name.slice(2)));
    if (hits.length === 1) name = `--${hits[0]}`;
  }
  return table.synonyms?.[name] ?? name;
}

function takesValue(option: string, table: OptionTable): boolean {
  const c = canonical(option, table);
  return (table.withValue ?? []).some((v) => v === option || canonical(v, table) === c);
}

export interface ReadOptions {
  /** Every option given, canonical (`-rf` gives `--recursive` and `--force` for rm). */
  options: Set<string>;
  /** The operands, with `afterOption` set when the word right before was an option that might take it as value. */
  operands: Array<{ arg: Arg; index: number; afterOption: boolean }>;
  /** Index of `--` in `args`, or `args.length` when there is none: words before it may still be options. */
  dashDash: number;
}

/** Reads all of `args` (GNU style: options may follow operands) until `--`. */
export function readOptions(args: readonly Arg[], table: OptionTable): ReadOptions {
  const options = new Set<string>();
  const operands: ReadOptions['operands'] = [];
  let pendingValue = false;
  let maybeValue = false;
  let rest = false;
  let dashDash = args.length;
  args.forEach((arg, index) => {
    // `-rf${IFS}/`: whatever the expansion, the first word starts with the option cluster `-rf`.
    const fixed = !rest && arg.dynamic && !arg.glob ? /^-([A-Za-z]+)[$`]/.exec(arg.value) : null;
    if (fixed) {
      for (const letter of fixed[1]!) options.add(canonical(`-${letter}`, table));
      return;
    }
    if (rest || !isOption(arg)) {
      if (pendingValue) {
        pendingValue = false;
        return;
      }
      operands.push({ arg, index, afterOption: maybeValue && !rest });
      maybeValue = false;
      return;
    }
    pendingValue = false;
    maybeValue = false;
    if (arg.value === '--') {
      rest = true;
      dashDash = index;
      return;
    }
    if (arg.value.startsWith('--')) {
      const [name = '', value] = splitLong(arg.value);
      options.add(canonical(name, table));
      if (value === undefined) {
        if (takesValue(name, table)) pendingValue = true;
        else maybeValue = true;
      }
      return;
    }
    const letters = arg.value.slice(1);
    for (let i = 0; i < letters.length; i++) {
      const opt = `-${letters[i]}`;
      options.add(canonical(opt, table));
      if (takesValue(opt, table)) {
        if (i === letters.length - 1) pendingValue = true;
        return;
      }
    }
    maybeValue = true;
  });
  return { options, operands, dashDash };
}

function splitLong(text: string): [string, string | undefined] {
  const eq = text.indexOf('=');
  return eq < 0 ? [text, undefined] : [text.slice(0, eq), text.slice(eq + 1)];
}

/**
 * For wrappers (`sudo`, `nice`, `xargs`…): skips the options of the wrapper itself (POSIX style: they end at
 * the first operand) and returns the index of that operand, or `args.length`.
 * `stops` are options after which the wrapper runs nothing (`command -v`), reported as `stopped`.
 */
export function skipOptions(
  args: readonly Arg[],
  from: number,
  table: OptionTable,
  stops: readonly string[] = [],
): { index: number; stopped: boolean; seen: Set<string>; values: Array<{ option: string; value: Arg }> } {
  const seen = new Set<string>();
  const values: Array<{ option: string; value: Arg }> = [];
  const valueOf = (arg: Arg, text: string): Arg => ({ ...arg, value: text });
  let i = from;
  while (i < args.length) {
    const arg = args[i]!;
    if (!isOption(arg)) break;
    if (arg.value === '--') return { index: i + 1, stopped: false, seen, values };
    if (arg.value.startsWith('--')) {
      const [name = '', value] = splitLong(arg.value);
      const c = canonical(name, table);
      seen.add(c);
      if (stops.includes(c)) return { index: i, stopped: true, seen, values };
      if (value !== undefined) values.push({ option: c, value: valueOf(arg, value) });
      else if (takesValue(name, table) && args[i + 1]) values.push({ option: c, value: args[i + 1]! });
      i += value === undefined && takesValue(name, table) ? 2 : 1;
      continue;
    }
    const letters = arg.value.slice(1);
    let skip = 1;
    for (let k = 0; k < letters.length; k++) {
      const opt = `-${letters[k]}`;
      const c = canonical(opt, table);
      seen.add(c);
      if (stops.includes(c)) return { index: i, stopped: true, seen, values };
      if (takesValue(opt, table)) {
        if (k === letters.length - 1) {
          skip = 2;
          if (args[i + 1]) values.push({ option: c, value: args[i + 1]! });
        } else values.push({ option: c, value: valueOf(arg, letters.slice(k + 1)) });
        break;
      }
    }
    i += skip;
  }
  return { index: Math.min(i, args.length), stopped: false, seen, values };
}
