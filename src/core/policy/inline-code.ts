// Code given to an interpreter on the command line (`python3 -c`, `perl -e`, `node -e`, `ruby -e`, `php -r`,
// awk programs, a heredoc on stdin) is scanned for shell commands it hands to system/exec/subprocess/
// child_process: those are checked like any command. A call whose command is not a plain string, and code that
// builds code at run time (eval, exec, __import__…), cannot be checked: a person decides. Plain code such as
// `python3 -c "print(1)"` runs nothing else and stays allowed.
import { CODE_OPTIONS, LANGS, langOf, type Lang } from './inline-langs.js';
import { maskStrings, readArguments, readString, shellLine, type Item } from './literals.js';
import { skipOptions } from './options.js';
import type { Step } from './steps.js';
import type { Cmd } from './types.js';

type Word = { text: string; dynamic: boolean };

const MAX_CALLS = 64;

/** The inline code of an interpreter call: its `-c`/`-e` values, its awk program, or a heredoc it reads. */
function codeOf(lang: Lang, cmd: Cmd): Word | null {
  const table = CODE_OPTIONS[lang];
  const { index, values, seen } = skipOptions(cmd.args, 1, { withValue: table.withValue });
  const code = values.filter((v) => table.code.includes(v.option)).map((v) => v.value);
  if (code.length > 0) return { text: code.map((c) => c.value).join('\n'), dynamic: code.some((c) => c.dynamic) };
  const operand = cmd.args[index];
  if (lang === 'awk' && operand && !seen.has('-f') && !seen.has('--file'))
    return { text: operand.value, dynamic: operand.dynamic };
  const stdin = cmd.stdin;
  if ((!operand || operand.value === '-') && stdin && stdin.kind !== 'file') return stdin;
  return null;
}

/** awk: `print … | "cmd"`, `"cmd" | getline`, `|&` coprocesses run the string next to the pipe. */
function awkPipes(code: string, via: string): Step[] {
  const steps: Step[] = [];
  for (const m of code.matchAll(/\|&?\s*("(?:[^"\\]|\\.)*")|("(?:[^"\\]|\\.)*")\s*\|&?\s*getline/g)) {
    const lit = readString(m[1] ?? m[2]!, 0);
    if (lit) steps.push({ kind: 'code', text: lit.text, dynamic: false, via });
  }
  const withoutStrings = code.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/\|\|/g, '');
  if (/\|&?\s*[^"\s|&]/.test(withoutStrings) || /[^"\s]\s*\|&?\s*getline/.test(withoutStrings))
    steps.push({ kind: 'opaque', why: `${via} pipes to or from a command computed at run time` });
  return steps;
}

function callSteps(lang: Lang, name: string, args: Item[], via: string): Step[] {
  const [first, second] = args;
  const argv = (words: Word[]): Step => ({
    kind: 'code',
    text: shellLine(words),
    dynamic: words.some((w) => w.dynamic),
    via,
  });
  if (first?.kind === 'list') return [argv(first.items)];
  if (first?.kind === 'string') {
    if (second?.kind === 'list')
      return [argv(/exec[lv]p?e?$|spawn[lv]p?e?$/.test(name) ? second.items : [first, ...second.items])];
    const strings = args.filter((a): a is Extract<Item, { kind: 'string' }> => a.kind === 'string');
    // `system('rm', '-rf', '/')` in perl, ruby or php: a program and its arguments, no shell.
    if (lang !== 'python' && lang !== 'node' && strings.length > 1 && strings.length === args.length)
      return [argv(strings)];
    return [{ kind: 'code', text: first.text, dynamic: first.dynamic, via }];
  }
  const shown = first?.kind === 'other' ? first.text.slice(0, 40) : '';
  return [{ kind: 'opaque', why: `${via} runs a command computed at run time: ${name}(${shown})` }];
}

function standIn(cmd: Cmd, words: Word[], what: string): Step {
  const first = cmd.args[0]!;
  const last = cmd.args[cmd.args.length - 1]!;
  const args = words.map((w) => ({ value: w.text, dynamic: w.dynamic, start: first.start, end: last.end }));
  const shown = words.map((w) => w.text).join(' ');
  return { kind: 'standin', cmd: { ...cmd, args }, equivalent: `${what}, checked as ${shown}` };
}

const fixed = (text: string): Word => ({ text, dynamic: false });
const asWord = (item: Item | undefined): Word =>
  item?.kind === 'string' ? item : { text: item?.kind === 'other' ? item.text : '?', dynamic: true };

/** Inline backticks and `qx{…}` / `%x(…)`. */
function backticks(code: string, via: string): Step[] {
  const steps: Step[] = [];
  for (const m of code.matchAll(/`([^`]*)`|(?:\bqx|%x)\s*([({[</|!])/g)) {
    if (m[1] !== undefined) {
      steps.push({ kind: 'code', text: m[1], dynamic: /\$|#\{/.test(m[1]), via });
      continue;
    }
    const open = m[2]!;
    const close = ({ '(': ')', '{': '}', '[': ']', '<': '>' } as Record<string, string>)[open] ?? open;
    const start = m.index + m[0].length;
    const end = code.indexOf(close, start);
    const text = code.slice(start, end < 0 ? undefined : end);
    steps.push({ kind: 'code', text, dynamic: /\$|#\{/.test(text), via });
  }
  return steps;
}

function chmodSteps(lang: Lang, cmd: Cmd, code: string, calls: string, pattern: RegExp): Step[] {
  const steps: Step[] = [];
  for (const m of calls.matchAll(pattern)) {
    const args = readArguments(code, m.index + m[0].length);
    const modeFirst = LANGS[lang].modeFirst === true;
    const mode = modeFirst ? args[0] : args[1];
    const path = modeFirst ? args[1] : args[0];
    if (!mode) continue;
    const text = mode.kind === 'list' ? '' : mode.text;
    const octal = /^(?:0o?)?([0-7]{3,4})$/.exec(text.trim());
    const known = octal ? octal[1]!.slice(-3) : text.trim() === '511' ? '777' : null;
    if (known === '777' || known === null)
      steps.push(
        standIn(
          cmd,
          [fixed('chmod'), { text: known ?? text, dynamic: known === null }, asWord(path)],
          'a file mode set in code',
        ),
      );
  }
  return steps;
}

/** What the inline code of `cmd` would run, or [] for a command that is not an interpreter with inline code. */
export function inlineCode(cmd: Cmd, program: string): Step[] {
  const lang = langOf(program);
  const code = lang ? codeOf(lang, cmd) : null;
  if (!lang || !code) return [];
  const via = `${program} code`;
  const rules = LANGS[lang];
  const steps: Step[] = [];
  if (code.dynamic) steps.push({ kind: 'opaque', why: `the ${program} code is computed at run time` });
  if (rules.dynamic?.test(code.text))
    steps.push({ kind: 'opaque', why: `the ${program} code builds and runs other code at run time` });
  if (lang === 'awk') steps.push(...awkPipes(code.text, via));
  if (rules.backticks) steps.push(...backticks(code.text, via));
  if (rules.needs && !rules.needs.test(code.text)) return steps;
  // Call names are looked for outside string literals (`print "system"` calls nothing); arguments are read as written.
  const calls = maskStrings(code.text);
  // Reading each call's arguments is linear in the code; past this many calls, a person decides.
  if ([...calls.matchAll(rules.runs)].length > MAX_CALLS)
    return [
      ...steps,
      { kind: 'opaque', why: `the ${program} code makes more than ${MAX_CALLS} calls that can run programs` },
    ];
  for (const m of calls.matchAll(rules.runs))
    steps.push(...callSteps(lang, m[0].trim(), readArguments(code.text, m.index + m[0].length), via));
  for (const m of calls.matchAll(rules.rmtree ?? /$^/g)) {
    const [path] = readArguments(code.text, m.index + m[0].length);
    steps.push(standIn(cmd, [fixed('rm'), fixed('-r'), fixed('-f'), asWord(path)], 'a recursive deletion'));
  }
  if (rules.chmod) steps.push(...chmodSteps(lang, cmd, code.text, calls, rules.chmod));
  return steps;
}
