// A config entry ("rm -rf", "sudo", "chmod 777", "> /dev/", anything a user writes) compiled into a matcher.
import { normalizeOperand, optionsOf, programName } from './programs.js';
import { readOptions } from './options.js';
import type { ParseScript } from './types.js';

export type Rule =
  /** "> /dev/": an output redirect (or tee / dd of=) whose target starts with `target`. */
  | { kind: 'write'; text: string; target: string }
  /** "rm -rf", "git push": a program, options that must all be present, operands that must lead in order. */
  | { kind: 'command'; text: string; program: string; options: string[]; operands: string[] }
  /** Anything else: its words must appear, in a row, among the words of the command line. */
  | { kind: 'words'; text: string; words: string[] };

const WRITE_RULE = /^\s*\d*(?:&>>|&>|>>|>\||>&|<>|>)\s*(.*?)\s*$/s;

const cache = new Map<string, Rule>();

export function compileRule(text: string, parse: ParseScript): Rule {
  let rule = cache.get(text);
  if (!rule) {
    rule = compile(text, parse);
    if (cache.size > 1000) cache.clear();
    cache.set(text, rule);
  }
  return rule;
}

function compile(text: string, parse: ParseScript): Rule {
  const write = WRITE_RULE.exec(text);
  if (write) return { kind: 'write', text, target: write[1] ?? '' };
  const words = text.trim().split(/\s+/).filter(Boolean);
  const script = parse(text);
  const only = script.parts[0];
  if (
    script.syntaxError ||
    script.parts.length !== 1 ||
    only?.kind !== 'command' ||
    only.cmd.args.some((a) => a.dynamic)
  ) {
    return { kind: 'words', text, words };
  }
  const [first, ...rest] = only.cmd.args;
  const program = programName(first!.value);
  const read = readOptions(rest, optionsOf(program));
  return {
    kind: 'command',
    text,
    program,
    options: [...read.options],
    operands: read.operands.map((o) => normalizeOperand(program, o.arg.value)),
  };
}
