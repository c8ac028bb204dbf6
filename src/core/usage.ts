// Usage totals: the run's, and each role's (the run report shows tokens, cost and time per role).
import type { Role, UsageTotals, WorkflowState } from './types.js';

export const NO_USAGE: UsageTotals = {
  inputTokens: 0,
  outputTokens: 0,
  cachedTokens: 0,
  costUsd: 0,
  durationMs: 0,
  calls: 0,
};

export type UsageReport = Omit<UsageTotals, 'calls'>;

function plus(u: UsageTotals, e: UsageReport): UsageTotals {
  return {
    inputTokens: u.inputTokens + e.inputTokens,
    outputTokens: u.outputTokens + e.outputTokens,
    cachedTokens: u.cachedTokens + e.cachedTokens,
    costUsd: u.costUsd + e.costUsd,
    durationMs: u.durationMs + e.durationMs,
    calls: u.calls + 1,
  };
}

/** The state with one more agent call's usage, in the run's totals and in `role`'s. */
export function addUsage(s: WorkflowState, role: Role, e: UsageReport): WorkflowState {
  const roles = s.roleUsage ?? {};
  return {
    ...s,
    usage: plus(s.usage, e),
    roleUsage: { ...roles, [role]: plus(roles[role] ?? NO_USAGE, e) },
  };
}
