// The decision: block beats confirm beats allow; the first matching rule (in config order) is reported.
import { analyze, cmdText } from './analyze.js';
import { matchesCommand, matchesWords, matchesWrite } from './match.js';
import { programName } from './programs.js';
import { compileRule, type Rule } from './rules.js';
import type { Finding, ParseScript, PolicyResult, PolicyRules } from './types.js';

/** Matched text is shown on one line: line continuations and newlines become spaces. */
function oneLine(text: string): string {
  return text.replace(/\\\n/g, ' ').replace(/\s+/g, ' ').trim();
}

interface Hit {
  rule: string;
  matched: string;
  finding: Finding | null;
}

function hitsOf(rule: Rule, findings: readonly Finding[], command: string): Hit[] {
  if (rule.kind === 'words') {
    const matched = matchesWords(rule, command);
    return matched === null ? [] : [{ rule: rule.text, matched, finding: null }];
  }
  const hits: Hit[] = [];
  for (const f of findings) {
    if (rule.kind === 'command' && f.kind === 'command' && matchesCommand(rule, f.cmd))
      hits.push({ rule: rule.text, matched: oneLine(cmdText(f.cmd)), finding: f });
    if (rule.kind === 'write' && f.kind === 'write' && matchesWrite(rule, f.write))
      hits.push({ rule: rule.text, matched: oneLine(f.write.text), finding: f });
  }
  return hits;
}

function allHits(rules: readonly string[], findings: readonly Finding[], command: string, parse: ParseScript): Hit[] {
  return rules.filter((r) => r.trim() !== '').flatMap((r) => hitsOf(compileRule(r, parse), findings, command));
}

interface Evaluation {
  result: PolicyResult;
  findings: Finding[];
  confirmHits: Hit[];
}

/** Analysis of pathological input (thousands of nested `$(`) can exhaust the stack: a person decides then. */
function analyzeSafely(command: string, parse: ParseScript): Finding[] {
  try {
    return analyze(command, parse);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return [{ kind: 'unparseable', text: command, why: 'the command is nested too deeply to check' }];
  }
}

function evaluate(command: string, rules: PolicyRules, parse: ParseScript): Evaluation {
  const findings = analyzeSafely(command, parse);
  const blocked = allHits(rules.blocked, findings, command, parse)[0];
  if (blocked) {
    return {
      findings,
      confirmHits: [],
      result: {
        decision: 'block',
        rule: blocked.rule,
        matched: blocked.matched,
        reason: `blocked by the rule "${blocked.rule}" in [safety] blocked_commands: ${blocked.matched}`,
      },
    };
  }
  const interactive = findings.find((f) => f.kind === 'interactive');
  if (interactive) {
    return {
      findings,
      confirmHits: [],
      result: {
        decision: 'block',
        rule: 'interactive shell',
        matched: oneLine(interactive.text),
        reason: `${oneLine(interactive.why)}; commands typed into it later would not be checked`,
      },
    };
  }
  const confirmHits = allHits(rules.confirm, findings, command, parse);
  const confirm = confirmHits[0];
  if (confirm) {
    return {
      findings,
      confirmHits,
      result: {
        decision: 'confirm',
        rule: confirm.rule,
        matched: confirm.matched,
        reason: `a person has to confirm it (rule "${confirm.rule}" in [safety] require_confirm_for): ${confirm.matched}`,
      },
    };
  }
  const unparseable = findings.find((f) => f.kind === 'unparseable');
  if (unparseable) {
    return {
      findings,
      confirmHits,
      result: {
        decision: 'confirm',
        rule: 'unparseable',
        matched: oneLine(unparseable.text),
        reason: `cannot be checked, so a person has to decide: ${oneLine(unparseable.why)}`,
      },
    };
  }
  return {
    findings,
    confirmHits,
    result: {
      decision: 'allow',
      rule: null,
      matched: null,
      reason: command.trim() === '' ? 'empty command' : 'no rule matched',
    },
  };
}

export function checkCommand(command: string, rules: PolicyRules, parse: ParseScript): PolicyResult {
  return evaluate(command, rules, parse).result;
}

/** The words a prefix stands for, normalized like a command: `/usr/bin/git 'push'` → ["git", "push"]. */
function prefixWords(prefix: string, parse: ParseScript): string[] {
  const script = parse(prefix);
  const only = script.parts[0];
  if (!script.syntaxError && script.parts.length === 1 && only?.kind === 'command') {
    const [first, ...rest] = only.cmd.args;
    return [programName(first!.value), ...rest.map((a) => a.value)];
  }
  return prefix.trim().split(/\s+/).filter(Boolean);
}

function covered(hit: Hit, prefixes: readonly string[], command: string, parse: ParseScript): boolean {
  const f = hit.finding;
  if (f?.kind === 'write') {
    return prefixes.some((p) => {
      const rule = compileRule(p, parse);
      return rule.kind === 'write' && matchesWrite(rule, f.write);
    });
  }
  const words =
    f?.kind === 'command'
      ? [programName(f.cmd.args[0]!.value), ...f.cmd.args.slice(1).map((a) => a.value)]
      : command.trim().split(/\s+/);
  return prefixes.some((p) => {
    const want = prefixWords(p, parse);
    return want.length > 0 && want.every((w, i) => words[i] === w);
  });
}

/**
 * For "allow for the rest of the run" and headless `--allow-cmd <prefix>`: true when every sub-command that
 * needs confirmation starts (word-wise, normalized: program basename, quotes removed) with one of the prefixes.
 * Never true for a blocked command, nor for one that cannot be parsed (a prefix cannot vouch for it).
 * True for a command that needs no confirmation at all.
 */
export function allowedByPrefix(
  command: string,
  prefixes: readonly string[],
  rules: PolicyRules,
  parse: ParseScript,
): boolean {
  const { result, findings, confirmHits } = evaluate(command, rules, parse);
  if (result.decision === 'block') return false;
  if (findings.some((f) => f.kind === 'unparseable')) return false;
  return confirmHits.every((hit) => covered(hit, prefixes, command, parse));
}
