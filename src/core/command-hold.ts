// Commands held for the person while an agent round runs, and what a denial does to the step. Pure.
import { waitForPerson } from './approval.js';
import type { ChoiceId } from './decisions.js';
import type { Effect, EngineEvent } from './events.js';
import type { ExecutionOptions } from './execution.js';
import type { TransitionResult } from './transition.js';
import type { WorkflowState } from './types.js';

type Ev<T extends EngineEvent['type']> = Extract<EngineEvent, { type: T }>;
type Reject = (why: string) => never;

export function onCommandHeld(s: WorkflowState, e: Ev<'command_held'>, reject: Reject): TransitionResult {
  if (!s.inflight) reject('no agent round is running');
  if (s.pendingCommand) reject(`another command is waiting for the person (${s.pendingCommand.command})`);
  return {
    state: { ...s, pendingCommand: e.command },
    effects: [
      {
        type: 'log',
        title: `Command held for the person (${e.command.decision}, rule "${e.command.rule}")`,
        lines: [e.command.command],
      },
    ],
  };
}

/** A command was denied: the agent is told why; too many in one step attempt stop the step. */
function denied(
  s: WorkflowState,
  command: string,
  reason: string,
  opts: ExecutionOptions,
  effects: Effect[],
): TransitionResult {
  const run = s.stepRun;
  const log: Effect = { type: 'log', title: 'Command denied', lines: [command, reason] };
  if (s.phase !== 'EXECUTE' || !run || s.inflight?.kind !== 'execute_step')
    return { state: s, effects: [...effects, log] };
  const denials = run.denials + 1;
  const next: WorkflowState = { ...s, stepRun: { ...run, denials } };
  if (denials < opts.maxDenials) return { state: next, effects: [...effects, log] };
  return {
    state: {
      ...waitForPerson(next, {
        kind: 'step_failed',
        step: run.step,
        attempt: run.attempt,
        category: 'policy_block',
        message: `${denials} command(s) denied in this attempt (last: ${command}); the step was stopped instead of letting the agent try variants`,
        rolledBack: false,
      }),
      pendingCommand: null,
    },
    effects: [
      ...effects,
      log,
      { type: 'stop_agents' },
      { type: 'log', title: `Step ${run.step} stopped after ${denials} denied command(s)` },
    ],
  };
}

export function onCommandChoice(
  s: WorkflowState,
  id: string,
  choice: ChoiceId<'command'>,
  opts: ExecutionOptions,
  reject: Reject,
): TransitionResult {
  const held = s.pendingCommand;
  if (!held || held.id !== id) reject('that command is no longer waiting for a decision');
  const p = held as NonNullable<typeof held>;
  const cleared: WorkflowState = { ...s, pendingCommand: null };
  switch (choice) {
    case 'allow-once':
      return {
        state: cleared,
        effects: [
          { type: 'answer_command', id: p.id, allow: true, reason: 'allowed once by the person' },
          { type: 'log', title: 'Person allowed a command once', lines: [p.command] },
        ],
      };
    case 'allow-run':
      return {
        state: {
          ...cleared,
          allowedCommands: cleared.allowedCommands.includes(p.command)
            ? cleared.allowedCommands
            : [...cleared.allowedCommands, p.command],
        },
        effects: [
          { type: 'answer_command', id: p.id, allow: true, reason: 'allowed for this run by the person' },
          { type: 'log', title: 'Person allowed a command for the rest of the run', lines: [p.command] },
        ],
      };
    case 'deny': {
      const reason = `the person denied it (rule "${p.rule}"): do not try variants of this command; continue without it, or stop and explain what you need`;
      return denied(cleared, p.command, reason, opts, [{ type: 'answer_command', id: p.id, allow: false, reason }]);
    }
  }
}

/** The policy (or a timeout) denied a command without the person. */
export function onCommandDenied(s: WorkflowState, e: Ev<'command_denied'>, opts: ExecutionOptions): TransitionResult {
  const cleared: WorkflowState = e.id && s.pendingCommand?.id === e.id ? { ...s, pendingCommand: null } : s;
  return denied(cleared, e.command, e.reason, opts, []);
}
