// Does one compiled rule match one thing the command line runs or writes?
import { readOptions } from './options.js';
import { normalizeOperand, optionsOf, programMatches, programName } from './programs.js';
import type { Rule } from './rules.js';
import type { Arg, Cmd, WriteTarget } from './types.js';

/** "yes": the command matches as written; "maybe": it matches once some word computed at run time expands so. */
export type Match = 'yes' | 'maybe' | 'no';

/**
 * A word computed at run time could expand into options (`rm $X /` with X=-rf). An unquoted glob can only when
 * it could name a file that looks like an option cluster: it starts with `-` or a wildcard and ends with one
 * (`*`, `-*`), not `*.log` (`-rf.log` is an invalid option to rm, not -r -f).
 */
export function couldBeOptions(arg: Arg): boolean {
  if (!arg.dynamic) return false;
  return !arg.glob || (/^[-*?[]/.test(arg.value) && /[*?\]]$/.test(arg.value));
}

export function matchesCommand(rule: Extract<Rule, { kind: 'command' }>, cmd: Cmd): Match {
  const [first, ...rest] = cmd.args;
  if (!first) return 'no';
  const program = programName(first.value);
  if (!programMatches(rule.program, program)) return 'no';
  const read = readOptions(rest, optionsOf(program));
  let maybe = false;
  if (!rule.options.every((o) => read.options.has(o))) {
    if (!rest.some((a, i) => i < read.dashDash && couldBeOptions(a))) return 'no';
    maybe = true;
  }
  // The rule's operands must be the command's leading operands, in order. A word right after an option
  // might be that option's value (`git -C dir push`), so it may be skipped when it does not match.
  // A word computed at run time might be the operand the rule names.
  let k = 0;
  for (const { arg, afterOption } of read.operands) {
    if (k === rule.operands.length) break;
    if (!arg.dynamic && normalizeOperand(program, arg.value) === rule.operands[k]) k++;
    else if (arg.dynamic) {
      k++;
      maybe = true;
    } else if (!afterOption) return 'no';
  }
  if (k < rule.operands.length) return 'no';
  return maybe ? 'maybe' : 'yes';
}

/** `a//b/./c/../d` → `a/b/d`, like path.posix.normalize (kept here: the core does no I/O and imports no node: modules). */
export function normalizePosix(p: string): string {
  const absolute = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else if (part !== '..' || !absolute) out.push(part);
  }
  const joined = (absolute ? '/' : '') + out.join('/');
  return (joined || (absolute ? '/' : '.')) + (p.endsWith('/') && out.length > 0 ? '/' : '');
}

/** Devices that are written to all the time and harm nothing; a rule matches them only by naming them exactly. */
const HARMLESS = /^\/dev\/(null|zero|full|stdin|stdout|stderr|tty|fd\/\d+)$/;

export function matchesWrite(rule: Extract<Rule, { kind: 'write' }>, write: WriteTarget): boolean {
  const ruleTarget = rule.target === '' ? '' : normalizePosix(rule.target);
  // A target like /dev/$DISK is unknown at check time, but its fixed start is known.
  const fixed = write.dynamic ? write.target.split(/[$`]/)[0]! : write.target;
  if (write.dynamic && fixed.length < ruleTarget.length) return false;
  const target = fixed === '' ? '' : normalizePosix(fixed);
  if (!target.startsWith(ruleTarget)) return false;
  return !(HARMLESS.test(target) && !write.dynamic && target !== ruleTarget);
}

/** The words of the rule, in a row, among the whitespace-separated words of the command line. */
export function matchesWords(rule: Extract<Rule, { kind: 'words' }>, command: string): string | null {
  const words = command.trim().split(/\s+/);
  const n = rule.words.length;
  if (n === 0) return null;
  for (let i = 0; i + n <= words.length; i++) {
    if (rule.words.every((w, k) => words[i + k] === w)) return words.slice(i, i + n).join(' ');
  }
  return null;
}
