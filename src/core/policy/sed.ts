// GNU sed can run commands: `e cmd` runs cmd, `e` alone and the `s///e` flag run the pattern space (text from
// the input, unknown here), and `w file` / `s///w file` write files. A small reader of sed scripts finds them.
import { skipOptions } from './options.js';
import { opaque, type Step } from './steps.js';
import type { Arg, Cmd } from './types.js';

const SED_OPTIONS = { withValue: ['-e', '--expression', '-f', '--file', '-l', '--line-length'] };

/** Skips a delimited part (`/re/`, `|re|`) starting right after its opening delimiter; returns the index after the closing one. */
function delimited(script: string, from: number, delim: string): number {
  let i = from;
  while (i < script.length && script[i] !== delim && script[i] !== '\n') i += script[i] === '\\' ? 2 : 1;
  return i + 1;
}

function restOfLine(script: string, from: number): { text: string; end: number } {
  const nl = script.indexOf('\n', from);
  const end = nl < 0 ? script.length : nl;
  return { text: script.slice(from, end).trim(), end };
}

/** The commands, files written and pattern-space executions of one sed script. */
export function scanSed(script: string, dynamic: boolean, via: string): Step[] {
  const steps: Step[] = [];
  const writeTo = (file: string) =>
    steps.push({ kind: 'write', write: { op: 'sed w', target: file, dynamic, text: `${via} w ${file}` } });
  let i = 0;
  while (i < script.length) {
    const c = script[i]!;
    if (/[\s;{}!\d$,~+]/.test(c)) {
      // Separators, blocks, negation and line-number addresses.
      i++;
    } else if (c === '/' || c === '\\') {
      // A regex address: /re/ or \cREc, with I/M modifiers.
      const delim = c === '/' ? '/' : (script[i + 1] ?? '/');
      i = delimited(script, i + (c === '/' ? 1 : 2), delim);
      while (/[IM]/.test(script[i] ?? '')) i++;
    } else if (/[btT]/.test(c)) {
      // A branch and its label run to the next `;` or line end.
      i++;
      while (i < script.length && !/[;\n}]/.test(script[i]!)) i++;
    } else if (/[#:aicrR]/.test(c)) {
      // a, i, c take text to the end of the line; a label or a comment too; r/R a file to read.
      i = restOfLine(script, i + 1).end;
    } else if (c === 'w' || c === 'W') {
      const line = restOfLine(script, i + 1);
      writeTo(line.text);
      i = line.end;
    } else if (c === 'e') {
      const line = restOfLine(script, i + 1);
      const text = line.text.replace(/[;}]\s*$/, '');
      if (text) steps.push({ kind: 'code', text, dynamic, via: `${via} e` });
      else steps.push(...opaque(`${via} runs each input line as a command (the e command)`));
      i = line.end;
    } else if (c === 's' || c === 'y') {
      const delim = script[i + 1] ?? '/';
      let j = delimited(script, delimited(script, i + 2, delim), delim);
      if (c === 's') {
        let flags = '';
        while (j < script.length && /[gpiImMe\d]/.test(script[j]!)) flags += script[j++];
        if (flags.includes('e'))
          steps.push(...opaque(`${via} runs the result of a substitution as a command (the s///e flag)`));
        if (script[j] === 'w') {
          const line = restOfLine(script, j + 1);
          writeTo(line.text);
          j = line.end;
        }
      }
      i = j;
    } else i++;
  }
  return steps;
}

export function sedSteps(cmd: Cmd): Step[] {
  const { index, values } = skipOptions(cmd.args, 1, SED_OPTIONS);
  const scripts: Arg[] = values.filter((v) => v.option === '-e' || v.option === '--expression').map((v) => v.value);
  const files = values.some((v) => v.option === '-f' || v.option === '--file');
  if (scripts.length === 0 && !files && cmd.args[index]) scripts.push(cmd.args[index]!);
  return scripts.flatMap((s) => scanSed(s.value, s.dynamic, 'sed'));
}
