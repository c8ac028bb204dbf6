// Where the budgets stop a run ([budget], core/budget.ts). The safe points are:
// - before an agent round starts: the round is not started; the run waits for the person with it;
// - as a round ends (its usage came with its answer, `roundEnded`): it keeps its answer; the next round waits;
// - while an agent round streams: the round is stopped and its result dropped (nothing it wrote is committed: a step
//   is committed only after a whole round and its tests; its edits stay in the working tree, uncommitted, as after a
//   stop). Raising the cap runs that round again.
// Tests and commits under way are never cut: the next round's check stops the run after them.
import { runNow, schedule, waitForPerson } from './approval.js';
import {
  BUDGET_KEYS,
  budgetsToNotice,
  describeBudget,
  noteNoticed,
  overBudget,
  raiseBudget,
  type BudgetReading,
} from './budget.js';
import type { ChoiceId } from './decisions.js';
import type { Effect } from './events.js';
import { stopToGoal, type TransitionOptions, type TransitionResult } from './transition-rules.js';
import { isAgentAction, type Action, type Awaiting, type WorkflowState } from './types.js';

type BudgetWait = Extract<Awaiting, { kind: 'budget' }>;

function reachedNotice(r: BudgetReading, where: string): Effect[] {
  const message = `Budget: ${BUDGET_KEYS[r.budget]} is reached (${describeBudget(r)}); ${where}. Raise the cap or stop.`;
  return [
    { type: 'log', title: `Budget reached: ${BUDGET_KEYS[r.budget]} (${describeBudget(r)})`, lines: [where] },
    { type: 'notify', notice: { kind: 'budget', ...r, reached: true, message } },
  ];
}

function waitAtCap(s: WorkflowState, r: BudgetReading, action: Action): WorkflowState {
  // A command the stopped round had held goes with it (the stop denies it).
  const waiting = waitForPerson(s, { kind: 'budget', budget: r.budget, spent: r.spent, cap: r.cap, action });
  return { ...waiting, pendingCommand: null };
}

/** A transition's result that would start an agent round while a budget is spent: the round waits instead. */
export function guardRoundStart(r: TransitionResult, opts: TransitionOptions): TransitionResult {
  const run = r.effects.find((e): e is Extract<Effect, { type: 'run_agent' }> => e.type === 'run_agent');
  if (!run) return r;
  const over = overBudget(r.state, opts.budget);
  if (!over) return r;
  return {
    state: waitAtCap(r.state, over, run.action),
    effects: [
      ...r.effects.filter((e) => e !== run),
      ...reachedNotice(over, `the ${run.role}'s next round (${run.action.kind}) was not started`),
    ],
  };
}

/**
 * After tokens, cost or agent time were added: the 80% notices not given yet, and at a cap the agent round under
 * way is stopped (`mayStop`: false when the round has already ended; the next round's check stops the run then).
 */
export function afterSpending(s: WorkflowState, opts: TransitionOptions, mayStop: boolean): TransitionResult {
  const near = budgetsToNotice(s, opts.budget);
  const state = noteNoticed(s, near);
  const effects: Effect[] = near.map((r) => ({
    type: 'notify',
    notice: {
      kind: 'budget',
      ...r,
      reached: false,
      message: `Budget: 80% of ${BUDGET_KEYS[r.budget]} used (${describeBudget(r)}).`,
    },
  }));
  const over = mayStop ? overBudget(state, opts.budget) : null;
  const action = state.inflight;
  if (!over || !action || !isAgentAction(action)) return { state, effects };
  return {
    state: waitAtCap(state, over, action),
    effects: [
      ...effects,
      { type: 'stop_agents' },
      ...reachedNotice(over, `the ${action.kind} round under way was stopped (its result is dropped)`),
    ],
  };
}

/**
 * On resume: a run stopped at a cap goes on when the cap was raised in the config (the round waits for a go in
 * manual mode); a round that was under way does not start again when a cap is reached.
 */
export function onBudgetCheck(s: WorkflowState, opts: TransitionOptions): TransitionResult {
  const over = overBudget(s, opts.budget);
  if (s.awaiting?.kind === 'budget' && !s.inflight && !over) {
    const { action } = s.awaiting;
    return schedule({ ...s, awaiting: null }, action, [
      { type: 'log', title: `Budget raised in the config; the ${action.kind} round goes on` },
    ]);
  }
  if (over && s.inflight && isAgentAction(s.inflight) && !s.awaiting)
    return {
      state: waitAtCap(s, over, s.inflight),
      effects: reachedNotice(over, `the ${s.inflight.kind} round was not started again`),
    };
  return { state: s, effects: [] };
}

/** The person's answer at a spent budget: raise its cap for this run and run the round, or stop. */
export function onBudgetChoice(s: WorkflowState, choice: ChoiceId<'budget'>, w: BudgetWait): TransitionResult {
  const reading = describeBudget(w);
  if (choice === 'stop')
    return stopToGoal(
      s,
      `Stopped at ${BUDGET_KEYS[w.budget]} (${reading}) by the person; back to goal refinement (plan kept)`,
    );
  return runNow(raiseBudget({ ...s, awaiting: null }, w.budget), w.action, [
    { type: 'log', title: `Person raised ${BUDGET_KEYS[w.budget]} for this run (was ${reading})` },
  ]);
}
