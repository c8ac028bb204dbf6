// From a command line to everything it would run or write: simple commands (also inside `$(…)`, `bash -c`,
// `sudo`, `xargs`, `find -exec`, interpreter code…), stand-ins for equivalent commands, write targets,
// interactive shells, and the parts that cannot be checked (syntax errors, what is only known at run time).
import { assignmentSteps } from './assignments.js';
import { equivalents } from './equivalents.js';
import { inlineCode } from './inline-code.js';
import { interpreterUse, isShell } from './interpreters.js';
import { programName } from './programs.js';
import type { Step } from './steps.js';
import type { Arg, Cmd, Finding, ParseScript } from './types.js';
import { unwrap } from './wrappers.js';
import { hiddenPushConfig, withPipedInput } from './piped.js';

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
    else if (part.kind === 'assign') {
      const shown = `${part.name}=${part.value.value}`;
      findings.push({ kind: 'env', name: part.name });
      findings.push(...stepFindings(assignmentSteps(part.name, part.value), shown, parse, depth, 0));
    } else findings.push(...commandFindings(withPipedInput(part.cmd, script.parts), parse, depth));
  }
  if (depth === 0) findings.push(...hiddenPushConfig(findings));
  return findings;
}

/**
 * Shell code given as a string. When part of it is computed at run time its text is still checked (so a
 * blocked command in it stays blocked), and a person decides about the rest.
 */
function codeFindings(code: string, dynamic: boolean, via: string, outer: string, parse: ParseScript, depth: number) {
  const findings = analyze(code, parse, depth + 1);
  if (dynamic)
    findings.unshift({
      kind: 'opaque',
      text: outer,
      why: `the shell code given to ${via} is computed at run time (${code})`,
    });
  return findings;
}

function stepFindings(steps: readonly Step[], text: string, parse: ParseScript, depth: number, wrappers: number) {
  const findings: Finding[] = [];
  for (const step of steps) {
    if (step.kind === 'inner') findings.push(...commandFindings(step.cmd, parse, depth, wrappers + 1));
    else if (step.kind === 'code')
      findings.push(...codeFindings(step.text, step.dynamic, step.via, text, parse, depth));
    else if (step.kind === 'write') findings.push({ kind: 'write', write: step.write });
    else if (step.kind === 'opaque') findings.push({ kind: 'opaque', text, why: step.why });
    else if (step.kind === 'standin') findings.push({ kind: 'command', cmd: step.cmd, equivalent: step.equivalent });
    else if (step.kind === 'assign') {
      findings.push({ kind: 'env', name: step.name });
      findings.push(...stepFindings(assignmentSteps(step.name, step.value), text, parse, depth, wrappers));
    } else
      findings.push({
        kind: 'interactive',
        text,
        why: `"${text}" starts an interactive shell (${step.via} with no command)`,
      });
  }
  return findings;
}

/** A shell's script read from its input: `bash -`, `bash /dev/stdin`. */
const STDIN_SCRIPT = /^(-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/;

/** The first operand of a shell: its script file. */
function scriptOperand(cmd: Cmd): Arg | null {
  const withValue = ['-o', '-O', '+O', '--rcfile', '--init-file'];
  const rest = cmd.args.slice(1);
  return (
    rest.find((a, i) => (a.dynamic || !/^[-+]./.test(a.value)) && !withValue.includes(rest[i - 1]?.value ?? '')) ?? null
  );
}

function shellFindings(cmd: Cmd, name: string, text: string, parse: ParseScript, depth: number): Finding[] {
  const use = interpreterUse(name, cmd.args);
  if (use?.kind === 'interactive')
    return [{ kind: 'interactive', text, why: `"${text}" starts an interactive ${describe(name)}` }];
  if (use?.kind === 'shell-code')
    return codeFindings(use.code.value, use.code.dynamic, `${name} -c`, text, parse, depth);
  const script = use?.kind === 'runs' && isShell(name) ? scriptOperand(cmd) : null;
  // `bash <(curl …)`, `sh "$SCRIPT"`: the script itself is only known at run time.
  if (script?.dynamic)
    return [{ kind: 'opaque', text, why: `${name} runs a script computed at run time (${script.value})` }];
  if (use?.kind !== 'reads-stdin' && !(script && STDIN_SCRIPT.test(script.value))) return [];
  const stdin = cmd.stdin;
  if (stdin === null) {
    const article = isShell(name) ? 'a' : 'an';
    const why = `"${text}" starts ${article} ${describe(name)} with no script or command, so it reads commands from its input`;
    return [{ kind: 'interactive', text, why }];
  }
  if (stdin.kind === 'file' && stdin.dynamic)
    return [{ kind: 'opaque', text, why: `${name} reads its program from input only known at run time` }];
  if (isShell(name) && stdin.kind !== 'file')
    return codeFindings(stdin.text, stdin.dynamic, `${name} on its input`, text, parse, depth);
  return [];
}

function commandFindings(cmd: Cmd, parse: ParseScript, depth: number, wrappers = 0): Finding[] {
  const program = cmd.args[0];
  if (!program) return [];
  const text = cmdText(cmd);
  if (wrappers > MAX_WRAPPERS)
    return [{ kind: 'unparseable', text, why: `more than ${MAX_WRAPPERS} wrapper commands around one command` }];
  if (program.dynamic) {
    const how = program.glob ? 'a pattern the shell expands' : 'computed';
    return [{ kind: 'opaque', text, why: `the program name ${program.value} is ${how} at run time` }];
  }
  const findings: Finding[] = [{ kind: 'command', cmd }];
  const name = programName(program.value);
  findings.push(...shellFindings(cmd, name, text, parse, depth));
  findings.push(...stepFindings(inlineCode(cmd, name), text, parse, depth, wrappers));
  findings.push(...stepFindings(unwrap(cmd), text, parse, depth, wrappers));
  // Stand-ins last, so that a command found inside (`find -exec rm -rf {} +`) is what gets reported.
  for (const e of equivalents(cmd)) findings.push({ kind: 'command', cmd: e.cmd, equivalent: e.equivalent });
  return findings;
}

function describe(program: string): string {
  return isShell(program) ? `shell (${program})` : `interpreter (${program})`;
}
