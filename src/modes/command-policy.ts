// The [safety] policy in effect for a run, as the engine's command gate uses it.
import type { CommandPolicy } from '../engine/command-gate.js';
import { allowedByPrefix, checkCommand, initPolicy, type PolicyRules } from '../engine/policy/index.js';
import type { Config } from '../persistence/config-schema.js';

export function policyRules(config: Config): PolicyRules {
  return { blocked: config.safety.blocked_commands, confirm: config.safety.require_confirm_for };
}

export function commandPolicy(config: Config, run: { interactive: boolean; allowCmd: readonly string[] }): CommandPolicy {
  const rules = policyRules(config);
  return {
    ready: initPolicy,
    evaluate: (command) => checkCommand(command, rules),
    allowedByPrefix: (command, prefixes) => allowedByPrefix(command, prefixes, rules),
    interactive: run.interactive,
    allowPrefixes: run.allowCmd,
    confirmTimeoutMs: config.safety.confirm_timeout_seconds * 1000,
  };
}
