// The pure command policy bound to the real shell parser, as the policy tests call it.
import { loadShellParser } from '../../src/adapters/shell-parser/syntax.js';
import * as policy from '../../src/core/policy/index.js';
import type { CheckOptions, ParseScript, PolicyResult, PolicyRules } from '../../src/core/policy/index.js';

export type { PolicyRules } from '../../src/core/policy/index.js';

let parse: ParseScript | null = null;

/** Loads the shell parser; call it in `beforeAll`. */
export async function initPolicy(): Promise<void> {
  parse = await loadShellParser();
}

function parser(): ParseScript {
  if (!parse) throw new Error('call `await initPolicy()` in beforeAll before checking commands');
  return parse;
}

export function checkCommand(command: string, rules: PolicyRules, options?: CheckOptions): PolicyResult {
  return policy.checkCommand(command, rules, parser(), options);
}

export function allowedByPrefix(command: string, prefixes: readonly string[], rules: PolicyRules): boolean {
  return policy.allowedByPrefix(command, prefixes, rules, parser());
}
