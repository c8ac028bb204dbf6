// The [safety] policy in effect for a run, as the engine's command gate uses it.
import type { CommandPolicy } from '../engine/command-gate.js';
import { allowedByPrefix, checkCommand, type ParseScript, type PolicyRules } from '../core/policy/index.js';
import { loadShellParser } from '../adapters/shell-parser/syntax.js';
import type { Config } from '../persistence/config-schema.js';

export function policyRules(config: Config): PolicyRules {
  return { blocked: config.safety.blocked_commands, confirm: config.safety.require_confirm_for };
}

export function commandPolicy(
  config: Config,
  run: { interactive: boolean; allowCmd: readonly string[] },
): CommandPolicy {
  const rules = policyRules(config);
  let parse: ParseScript | null = null;
  const parser = (): ParseScript => {
    if (!parse) throw new Error('the command policy is used before its shell parser loaded');
    return parse;
  };
  return {
    ready: async () => {
      parse = await loadShellParser();
    },
    evaluate: (command, options) => checkCommand(command, rules, parser(), { builtInConfirm: options?.own !== true }),
    allowedByPrefix: (command, prefixes) => allowedByPrefix(command, prefixes, rules, parser()),
    interactive: run.interactive,
    allowPrefixes: run.allowCmd,
    confirmTimeoutMs: config.safety.confirm_timeout_seconds * 1000,
  };
}
