// The decision: block beats confirm beats allow. A command that matches a blocking rule only once some word
// computed at run time expands (`rm $X /`) is held for a person, never allowed; so is anything whose program
// cannot be known before it runs. Within a level, configured rules are reported first (in config order), then
// the built-in ones.
import { analyze, cmdText } from './analyze.js';
import { BUILT_IN_RULES, type BuiltInRule } from './builtin-rules.js';
import { matchesCommand, matchesWords, matchesWrite, type Match } from './match.js';
import { programName } from './programs.js';
import { compileRule, type Rule } from './rules.js';
import type { Finding, ParseScript, PolicyResult, PolicyRules } from './types.js';

/** Matched text is shown on one line: line continuations and newlines become spaces. */
function oneLine(text: string): string {
  return text.replace(/\\\n/g, ' ').replace(/\s+/g, ' ').trim();
}

interface Hit {
  rule: string;
  match: Exclude<Match, 'no'>;
  matched: string;
  finding: Finding | null;
  builtIn: BuiltInRule | null;
}

function matchedText(f: Finding): string {
  if (f.kind === 'command') return oneLine(cmdText(f.cmd));
  if (f.kind === 'env') return f.name;
  return oneLine(f.kind === 'write' ? f.write.text : f.text);
}

function hitsOf(rule: Rule, findings: readonly Finding[], command: string): Hit[] {
  if (rule.kind === 'words') {
    const matched = matchesWords(rule, command);
    return matched === null ? [] : [{ rule: rule.text, match: 'yes', matched, finding: null, builtIn: null }];
  }
  const hits: Hit[] = [];
  for (const f of findings) {
    let match: Match = 'no';
    if (rule.kind === 'command' && f.kind === 'command') match = matchesCommand(rule, f.cmd);
    else if (rule.kind === 'write' && f.kind === 'write' && matchesWrite(rule, f.write)) match = 'yes';
    if (match !== 'no') hits.push({ rule: rule.text, match, matched: matchedText(f), finding: f, builtIn: null });
  }
  return hits;
}

function configHits(rules: readonly string[], findings: readonly Finding[], command: string, parse: ParseScript) {
  return rules.filter((r) => r.trim() !== '').flatMap((r) => hitsOf(compileRule(r, parse), findings, command));
}

function builtInHits(decision: BuiltInRule['decision'], findings: readonly Finding[]): Hit[] {
  const hits: Hit[] = [];
  for (const rule of BUILT_IN_RULES.filter((r) => r.decision === decision)) {
    for (const f of findings) {
      let match: Match = 'no';
      if (f.kind === 'command' && rule.command) match = rule.command(f.cmd);
      else if (f.kind === 'write' && rule.write?.(f.write)) match = 'yes';
      if (match !== 'no') hits.push({ rule: rule.name, match, matched: matchedText(f), finding: f, builtIn: rule });
    }
  }
  return hits;
}

/** " (a recursive deletion, checked as rm -r -f /)" after a stand-in's matched text. */
function equivalentNote(hit: Hit): string {
  return hit.finding?.kind === 'command' && hit.finding.equivalent ? ` (${hit.finding.equivalent})` : '';
}

/** The words of a matched command that are only known at run time, for the reason. */
function computedWords(hit: Hit): string {
  const f = hit.finding;
  const words = f?.kind === 'command' ? f.cmd.args.filter((a) => a.dynamic).map((a) => a.value) : [];
  return words.length > 0 ? words.slice(0, 3).join(' ') : 'a word computed at run time';
}

function blockReason(hit: Hit): string {
  const where = hit.builtIn
    ? `the built-in rule "${hit.rule}" (${hit.builtIn.explain}; always on, whatever [safety] says)`
    : `the rule "${hit.rule}" in [safety] blocked_commands`;
  return `blocked by ${where}: ${hit.matched}${equivalentNote(hit)}`;
}

function maybeBlockedReason(hit: Hit): string {
  const words = computedWords(hit);
  return `${words} is only known at run time and could make this match the blocking rule "${hit.rule}", so a person has to decide: ${hit.matched}${equivalentNote(hit)}`;
}

function confirmReason(hit: Hit): string {
  const where = hit.builtIn
    ? `built-in rule "${hit.rule}": ${hit.builtIn.explain}`
    : `rule "${hit.rule}" in [safety] require_confirm_for`;
  return `a person has to confirm it (${where}): ${hit.matched}${equivalentNote(hit)}`;
}

interface Evaluation {
  result: PolicyResult;
  /** Hits a prefix may cover ("allow for the rest of the run", --allow-cmd). */
  confirmHits: Hit[];
  /** Something is held that no prefix can vouch for: unparseable, opaque, or possibly blocked. */
  uncoverable: boolean;
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

const decided = (decision: PolicyResult['decision'], rule: string, matched: string, reason: string) => ({
  decision,
  rule,
  matched,
  reason,
});

/** `builtInConfirm: false` for agent-collab's own commit and rollback: the person asked for them. */
export interface CheckOptions {
  builtInConfirm?: boolean;
}

function evaluate(command: string, rules: PolicyRules, parse: ParseScript, options: CheckOptions = {}): Evaluation {
  const findings = analyzeSafely(command, parse);
  const blocking = [...configHits(rules.blocked, findings, command, parse), ...builtInHits('block', findings)];
  const blocked = blocking.find((h) => h.match === 'yes');
  if (blocked) {
    const result = decided('block', blocked.rule, blocked.matched, blockReason(blocked));
    return { result, confirmHits: [], uncoverable: true };
  }
  const interactive = findings.find((f) => f.kind === 'interactive');
  if (interactive?.kind === 'interactive') {
    const reason = `${oneLine(interactive.why)}; commands typed into it later would not be checked`;
    return {
      result: decided('block', 'interactive shell', oneLine(interactive.text), reason),
      confirmHits: [],
      uncoverable: true,
    };
  }
  const builtInConfirm = options.builtInConfirm === false ? [] : builtInHits('confirm', findings);
  const confirmHits = [...configHits(rules.confirm, findings, command, parse), ...builtInConfirm];
  const maybeBlocked = blocking[0];
  const opaque = findings.find((f) => f.kind === 'opaque');
  const unparseable = findings.find((f) => f.kind === 'unparseable');
  const uncoverable = maybeBlocked !== undefined || opaque !== undefined || unparseable !== undefined;
  const held = (result: PolicyResult): Evaluation => ({ result, confirmHits, uncoverable });
  if (maybeBlocked)
    return held(decided('confirm', maybeBlocked.rule, maybeBlocked.matched, maybeBlockedReason(maybeBlocked)));
  const confirm = confirmHits[0];
  if (confirm) return held(decided('confirm', confirm.rule, confirm.matched, confirmReason(confirm)));
  if (opaque?.kind === 'opaque') {
    const reason = `cannot tell what will run, so a person has to decide: ${oneLine(opaque.why)}`;
    return held(decided('confirm', 'cannot tell what runs', oneLine(opaque.text), reason));
  }
  if (unparseable?.kind === 'unparseable') {
    const reason = `cannot be checked, so a person has to decide: ${oneLine(unparseable.why)}`;
    return held(decided('confirm', 'unparseable', oneLine(unparseable.text), reason));
  }
  const reason = command.trim() === '' ? 'empty command' : 'no rule matched';
  return { result: { decision: 'allow', rule: null, matched: null, reason }, confirmHits, uncoverable: false };
}

export function checkCommand(
  command: string,
  rules: PolicyRules,
  parse: ParseScript,
  options: CheckOptions = {},
): PolicyResult {
  return evaluate(command, rules, parse, options).result;
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
 * Never true for a blocked command, nor for one a prefix cannot vouch for: unparseable, whose program is only
 * known at run time, or that could turn into a blocked one (`rm $X /`, `git push origin "$REF"`).
 * True for a command that needs no confirmation at all.
 */
export function allowedByPrefix(
  command: string,
  prefixes: readonly string[],
  rules: PolicyRules,
  parse: ParseScript,
): boolean {
  const { result, confirmHits, uncoverable } = evaluate(command, rules, parse);
  if (result.decision === 'block' || uncoverable) return false;
  return confirmHits.every((hit) => covered(hit, prefixes, command, parse));
}
