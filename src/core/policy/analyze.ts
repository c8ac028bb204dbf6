// From a command line to everything it would run or write: simple commands (also inside `$(…)`, `bash -c`,
// `sudo`, `xargs`, `find -exec`…), write targets, interactive shells, and the parts that cannot be checked.
import { interpreterUse, isShell } from './interpreters.js';
import { programName } from './programs.js';
import type { Cmd, Finding, ParseScript } from './types.js';
import { unwrap } from './wrappers.js';

/** `bash -c "sh -c '…'"` nests; past this depth the command is treated as unparseable. */
const MAX_DEPTH = 8;
/** `nice nice nice … rm`: past this many wrappers around one command, the command is treated as unparseable. */
const MAX_WRAPPERS = 32;

export function cmdText(cmd: Cmd): string {
  const first = cmd.args[0];
  const last = cmd.args[cmd.args.length - 1];
  return first && last ? cmd.source.slice(first.start, last.end) : '';
}

export function analyze(text: string, parse: ParseScript, depth = 0): Finding[] {
  if (depth > MAX_DEPTH)
    return [{ kind: 'unparseable', text, why: `shell code nested more than ${MAX_DEPTH} levels deep` }];
  const script = parse(text);
  const findings: Finding[] = [];
  if (script.syntaxError) findings.push({ kind: 'unparseable', text, why: script.syntaxError });
  for (const part of script.parts) {
    if (part.kind === 'write') findings.push({ kind: 'write', write: part.write });
    else findings.push(...commandFindings(part.cmd, parse, depth));
  }
  return findings;
}

function codeFindings(
  code: string,
  dynamic: boolean,
  via: string,
  outer: string,
  parse: ParseScript,
  depth: number,
): Finding[] {
  if (dynamic)
    return [
      { kind: 'unparseable', text: outer, why: `the shell code given to ${via} is computed at run time (${code})` },
    ];
  return analyze(code, parse, depth + 1);
}

function commandFindings(cmd: Cmd, parse: ParseScript, depth: number, wrappers = 0): Finding[] {
  const program = cmd.args[0];
  if (!program) return [];
  const text = cmdText(cmd);
  if (wrappers > MAX_WRAPPERS)
    return [{ kind: 'unparseable', text, why: `more than ${MAX_WRAPPERS} wrapper commands around one command` }];
  if (program.dynamic)
    return [{ kind: 'unparseable', text, why: `the program name ${program.value} is computed at run time` }];
  const findings: Finding[] = [{ kind: 'command', cmd }];
  const name = programName(program.value);
  const use = interpreterUse(name, cmd.args);
  if (use?.kind === 'interactive') {
    findings.push({ kind: 'interactive', text, why: `"${text}" starts an interactive ${describe(name)}` });
  } else if (use?.kind === 'shell-code') {
    findings.push(...codeFindings(use.code.value, use.code.dynamic, `${name} -c`, text, parse, depth));
  } else if (use?.kind === 'reads-stdin') {
    const stdin = cmd.stdin;
    if (stdin === null) {
      findings.push({
        kind: 'interactive',
        text,
        why: `"${text}" starts ${isShell(name) ? 'a' : 'an'} ${describe(name)} with no script or command, so it reads commands from its input`,
      });
    } else if (use.shell && stdin.kind !== 'file') {
      findings.push(...codeFindings(stdin.text, false, `${name} on its input`, text, parse, depth));
    }
  }
  for (const step of unwrap(cmd)) {
    if (step.kind === 'inner') findings.push(...commandFindings(step.cmd, parse, depth, wrappers + 1));
    else if (step.kind === 'code')
      findings.push(...codeFindings(step.text, step.dynamic, step.via, text, parse, depth));
    else if (step.kind === 'write') findings.push({ kind: 'write', write: step.write });
    else
      findings.push({
        kind: 'interactive',
        text,
        why: `"${text}" starts an interactive shell (${step.via} with no command)`,
      });
  }
  return findings;
}

function describe(program: string): string {
  return isShell(program) ? `shell (${program})` : `interpreter (${program})`;
}
