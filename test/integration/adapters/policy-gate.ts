// A CommandGate over the real command policy with the default [safety] rules, for tests: allow → allow,
// block → deny, confirm → held until the test answers it (as the engine holds it for the person).
import { checkCommand, initPolicy } from '../../helpers/policy.js';
import type { CommandCheck, CommandGate, CommandVerdict } from '../../../src/core/ports.js';
import { configSchema } from '../../../src/persistence/config-schema.js';

export interface HeldCheck {
  check: CommandCheck;
  rule: string | null;
  answer(verdict: CommandVerdict): void;
}

export interface PolicyGate {
  gate: CommandGate;
  /** Checks waiting for the test's answer, oldest first. */
  held: HeldCheck[];
  /** Every check with the policy's decision. */
  seen: { check: CommandCheck; decision: string }[];
  confirmTimeoutSeconds: number;
}

export async function defaultPolicyGate(): Promise<PolicyGate> {
  await initPolicy();
  const safety = configSchema.parse({}).safety;
  const rules = { blocked: safety.blocked_commands, confirm: safety.require_confirm_for };
  const held: HeldCheck[] = [];
  const seen: PolicyGate['seen'] = [];
  const gate: CommandGate = (check) => {
    const v = checkCommand(check.command, rules);
    seen.push({ check, decision: v.decision });
    if (v.decision === 'allow') return Promise.resolve({ allow: true });
    if (v.decision === 'block')
      return Promise.resolve({
        allow: false,
        reason: `blocked by agent-collab's command policy (rule "${v.rule}": ${v.reason})`,
      });
    return new Promise((resolve) => held.push({ check, rule: v.rule, answer: resolve }));
  };
  return { gate, held, seen, confirmTimeoutSeconds: safety.confirm_timeout_seconds };
}
