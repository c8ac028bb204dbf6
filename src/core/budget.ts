// Budget arithmetic of a run ([budget] max_tokens, max_cost_usd, max_minutes; 0 = no cap): what has been spent,
// the caps in force (the configured ones, raised by the person), the 80% notices and the cap itself.
// Minutes are the agents' working time: the sum of the agent rounds' wall times as agent-collab measured them
// (time waiting for the person, running tests or committing, and between runs, is not counted).
import type { BudgetRecord, Role, WorkflowState } from './types.js';

export const BUDGETS = ['tokens', 'cost', 'minutes'] as const;
export type BudgetKind = (typeof BUDGETS)[number];
/** The configured caps; 0 = no cap. */
export type BudgetCaps = Record<BudgetKind, number>;

/** The config key of each budget, for messages. */
export const BUDGET_KEYS: Record<BudgetKind, string> = {
  tokens: '[budget] max_tokens',
  cost: '[budget] max_cost_usd',
  minutes: '[budget] max_minutes',
};

/** The share of a cap at which the person is told it is near. */
export const NOTICE_SHARE = 0.8;
const MS_PER_MINUTE = 60_000;

export const NO_BUDGET_SPENT: BudgetRecord = { workedMs: 0, raises: {}, noticedAt: {} };

export function budgetOf(s: WorkflowState): BudgetRecord {
  return s.budget ?? NO_BUDGET_SPENT;
}

/** What the run has spent; `liveMs`: agent time of the round under way not yet counted in the state. */
export function spentOf(s: WorkflowState, liveMs = 0): Record<BudgetKind, number> {
  return {
    tokens: s.usage.inputTokens + s.usage.outputTokens,
    cost: s.usage.costUsd,
    minutes: (budgetOf(s).workedMs + liveMs) / MS_PER_MINUTE,
  };
}

/** The caps in force: each configured cap, once more for every time the person raised it in this run. */
export function capsOf(s: WorkflowState, caps: BudgetCaps): BudgetCaps {
  const raises = budgetOf(s).raises;
  return {
    tokens: caps.tokens * (1 + (raises.tokens ?? 0)),
    cost: caps.cost * (1 + (raises.cost ?? 0)),
    minutes: caps.minutes * (1 + (raises.minutes ?? 0)),
  };
}

export interface BudgetReading {
  budget: BudgetKind;
  spent: number;
  cap: number;
}

/** The first budget whose cap is reached, or null (no cap, or all under it). */
export function overBudget(s: WorkflowState, caps: BudgetCaps | undefined, liveMs = 0): BudgetReading | null {
  if (!caps) return null;
  const spent = spentOf(s, liveMs);
  const inForce = capsOf(s, caps);
  const kind = BUDGETS.find((k) => inForce[k] > 0 && spent[k] >= inForce[k]);
  return kind ? { budget: kind, spent: spent[kind], cap: inForce[kind] } : null;
}

/** The budgets past 80% of their cap in force that the person has not been told about at that cap yet. */
export function budgetsToNotice(s: WorkflowState, caps: BudgetCaps | undefined): BudgetReading[] {
  if (!caps) return [];
  const spent = spentOf(s);
  const inForce = capsOf(s, caps);
  const noticed = budgetOf(s).noticedAt;
  return BUDGETS.filter(
    (k) =>
      inForce[k] > 0 && spent[k] >= NOTICE_SHARE * inForce[k] && spent[k] < inForce[k] && noticed[k] !== inForce[k],
  ).map((k) => ({ budget: k, spent: spent[k], cap: inForce[k] }));
}

/**
 * Milliseconds of agent time from now until the minutes budget reaches its next mark (80% or the cap), or null when
 * there is no minutes cap or both marks are behind. `liveMs`: the round's time not yet counted in the state.
 */
export function msToNextMinutesMark(s: WorkflowState, caps: BudgetCaps | undefined, liveMs = 0): number | null {
  if (!caps) return null;
  const capMs = capsOf(s, caps).minutes * MS_PER_MINUTE;
  if (capMs <= 0) return null;
  const spentMs = budgetOf(s).workedMs + liveMs;
  const noticed = budgetOf(s).noticedAt.minutes === capsOf(s, caps).minutes;
  const marks = [noticed ? null : NOTICE_SHARE * capMs, capMs].filter((m): m is number => m !== null);
  const next = marks.find((m) => m > spentMs);
  return next === undefined ? null : Math.ceil(next - spentMs);
}

/** "12,345 / 50,000 tokens", "$1.23 / $5.00", "12.5 / 30 min". */
export function describeBudget(r: BudgetReading): string {
  switch (r.budget) {
    case 'tokens':
      return `${Math.round(r.spent).toLocaleString('en-US')} / ${Math.round(r.cap).toLocaleString('en-US')} tokens`;
    case 'cost':
      return `$${r.spent.toFixed(2)} / $${r.cap.toFixed(2)}`;
    case 'minutes':
      return `${roundTo(r.spent, 1)} / ${roundTo(r.cap, 1)} min`;
  }
}

/** Every capped budget as "spent / cap" (for the status bar); empty when nothing is capped. */
export function budgetLine(s: WorkflowState, caps: BudgetCaps | undefined, liveMs = 0): string[] {
  if (!caps) return [];
  const spent = spentOf(s, liveMs);
  const inForce = capsOf(s, caps);
  return BUDGETS.filter((k) => inForce[k] > 0).map((k) =>
    describeBudget({ budget: k, spent: spent[k], cap: inForce[k] }),
  );
}

function roundTo(n: number, digits: number): string {
  const f = 10 ** digits;
  return String(Math.round(n * f) / f);
}

/** The state after the person raised `budget`'s cap once more (the 80% notice is given again at the new cap). */
export function raiseBudget(s: WorkflowState, budget: BudgetKind): WorkflowState {
  const b = budgetOf(s);
  return { ...s, budget: { ...b, raises: { ...b.raises, [budget]: (b.raises[budget] ?? 0) + 1 } } };
}

/** The state with the 80% notices of `readings` recorded, so each is given once per cap. */
export function noteNoticed(s: WorkflowState, readings: BudgetReading[]): WorkflowState {
  if (readings.length === 0) return s;
  const b = budgetOf(s);
  const noticedAt = { ...b.noticedAt };
  for (const r of readings) noticedAt[r.budget] = r.cap;
  return { ...s, budget: { ...b, noticedAt } };
}

/** The state with `ms` more agent time (`role`'s, when known). */
export function addWorked(s: WorkflowState, ms: number, role?: Role): WorkflowState {
  const b = budgetOf(s);
  const more = Math.max(0, ms);
  const byRole = role
    ? { workedMsByRole: { ...b.workedMsByRole, [role]: (b.workedMsByRole?.[role] ?? 0) + more } }
    : {};
  return { ...s, budget: { ...b, workedMs: b.workedMs + more, ...byRole } };
}

/**
 * Measures a round's agent time in laps: each `lap()` is the time since the previous one (or the start), so every
 * millisecond is counted once, whether it is reported while the round streams or when it ends. `now` is injected:
 * the core has no clock of its own.
 */
export class RoundClock {
  private last: number;

  constructor(private readonly now: () => number) {
    this.last = now();
  }

  lap(): number {
    const t = this.now();
    const ms = Math.max(0, t - this.last);
    this.last = t;
    return ms;
  }

  /** Time since the last lap, without ending it. */
  pending(): number {
    return Math.max(0, this.now() - this.last);
  }
}
