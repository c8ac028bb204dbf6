// The events of a headless run, typed: the objects `agent-collab run --json` prints one per line, and the ones the
// library API (`run({ onEvent })`, src/api/) passes on. Built here, once, from the engine's outputs; the printer
// stamps, redacts and writes them, the API hands the same objects over.
import type { EngineEventType, EngineOutput, RoundUsage } from '../core/events.js';
import type { BudgetKind } from '../core/budget.js';
import { CANCEL, choicesFor } from '../core/decisions.js';
import type { ReportStatus, RunEnding } from '../core/run-report.js';
import type { Action, AgentEvent, Awaiting, Phase, Role, StepInfo, UsageTotals, Verdict } from '../core/types.js';

/** One choice of a `needs_human` event: `flag` is how the CLI gives it (`--decide approve`, `--answer "…"`). */
export interface RunChoice {
  id: string;
  flag: string;
  description: string;
}

export interface PhaseEvent {
  event: 'phase';
  from: Phase;
  to: Phase;
  iteration: number;
}
/** What an agent's CLI reported, translated (core/types.ts `AgentEvent`), with the role that played it. */
export type AgentRunEvent = { event: 'agent'; role: Role } & AgentEvent;
export interface VerdictEvent {
  event: 'verdict';
  iteration: number;
  verdict: Verdict | 'UNCLEAR';
  marker: boolean;
}
export interface RoundEvent {
  event: 'round';
  role: Role;
  action: Action['kind'];
  outcome: 'done' | 'question' | 'failed';
  usage: RoundUsage;
}
export interface CommandEvent {
  event: 'command';
  role: Role | 'agent-collab';
  command: string;
  decision: 'allow' | 'deny';
  rule: string | null;
  reason: string;
}
export interface CodeReviewEvent {
  event: 'code_review';
  round: number;
  step: number | null;
  verdict: Verdict | 'UNCLEAR';
  marker: boolean;
}
export interface BudgetEvent {
  event: 'budget';
  budget: BudgetKind;
  spent: number;
  cap: number;
  reached: boolean;
  message: string;
}
export interface TestsEvent {
  event: 'tests';
  step: number;
  attempt: number;
  command: string;
  passed: boolean;
  duration_ms: number;
}
export interface NoticeEvent {
  event: 'notice';
  message: string;
}
export interface RejectedEvent {
  event: 'rejected';
  command: EngineEventType;
  message: string;
}
export interface ErrorEvent {
  event: 'error';
  message: string;
}
export interface ReportEvent {
  event: 'report';
  status: ReportStatus;
  ending: RunEnding;
  path: string;
  steps_done: number;
  steps_total: number;
  commits: number;
  files_changed: number;
  tokens: number;
  cost_usd: number;
  agent_minutes: number;
}
/** The run waits for a person: what for (the `Awaiting` fields), a hint, and the choices `--decide` accepts there. */
export type NeedsHumanEvent = { event: 'needs_human'; phase: Phase } & Awaiting & {
    hint: string;
    choices: RunChoice[];
  };
export interface WaitingEvent {
  event: 'waiting';
  reason: 'usage_limit';
  until: string;
  reset_at: string;
  role: Role;
  action: Action['kind'];
  message: string;
}
/** The last event of every run: where it stopped and the CLI's exit code. */
export interface DoneEvent {
  event: 'done';
  phase: Phase;
  iteration: number;
  exit_code: number;
  steps: StepInfo[];
  usage: UsageTotals;
}

/** An event without its time stamp, as built; the printer adds `ts` (ISO time) first. */
export type RunEventBody =
  | PhaseEvent
  | AgentRunEvent
  | VerdictEvent
  | RoundEvent
  | CommandEvent
  | CodeReviewEvent
  | BudgetEvent
  | TestsEvent
  | NoticeEvent
  | RejectedEvent
  | ErrorEvent
  | ReportEvent
  | NeedsHumanEvent
  | WaitingEvent
  | DoneEvent;

/** One NDJSON line of `agent-collab run --json`, parsed; discriminated by `event`. */
export type RunEvent = { ts: string } & RunEventBody;
export type RunEventName = RunEventBody['event'];

/** The choices `needs_human` lists: the decisions table's for this question, and `--decide cancel`. */
export function headlessChoices(w: Awaiting): RunChoice[] {
  const offered = choicesFor(w).filter((c) => c.flag !== null);
  const all = offered.some((c) => c.id === CANCEL.id) ? offered : [...offered, CANCEL];
  return all.map((c) => ({ id: c.id, flag: c.flag ?? '', description: c.description }));
}

/** The event an engine output is printed as; null for the outputs that are not (state, awaiting, finished). */
export function runEventOf(out: EngineOutput): RunEventBody | null {
  switch (out.type) {
    case 'phase':
      return { event: 'phase', from: out.from, to: out.to, iteration: out.iteration };
    case 'agent_event':
      return { event: 'agent', role: out.role, ...out.event };
    case 'notice': {
      const n = out.notice;
      switch (n.kind) {
        case 'verdict':
          return { event: 'verdict', iteration: n.iteration, verdict: n.verdict, marker: n.marker };
        case 'round':
          return { event: 'round', role: n.role, action: n.action, outcome: n.outcome, usage: n.usage };
        case 'command': {
          const { role, command, decision, rule, reason } = n;
          return { event: 'command', role, command, decision, rule, reason };
        }
        case 'code_verdict':
          return { event: 'code_review', round: n.round, step: n.step, verdict: n.verdict, marker: n.marker };
        case 'budget': {
          const { budget, spent, cap, reached, message } = n;
          return { event: 'budget', budget, spent, cap, reached, message };
        }
        case 'tests': {
          const { step, attempt, command, passed } = n;
          return { event: 'tests', step, attempt, command, passed, duration_ms: n.durationMs };
        }
        default:
          return { event: 'notice', message: n.message };
      }
    }
    case 'rejected':
      return { event: 'rejected', command: out.event, message: out.message };
    case 'error':
      return { event: 'error', message: out.message };
    case 'report':
      return {
        event: 'report',
        status: out.status,
        ending: out.ending,
        path: out.path,
        steps_done: out.stepsDone,
        steps_total: out.stepsTotal,
        commits: out.commits,
        files_changed: out.filesChanged,
        tokens: out.tokens,
        cost_usd: out.costUsd,
        agent_minutes: out.agentMinutes,
      };
    default:
      return null;
  }
}

export function needsHumanEvent(w: Awaiting, phase: Phase, hint: string): NeedsHumanEvent {
  return { event: 'needs_human', phase, ...w, hint, choices: headlessChoices(w) };
}

export function waitingEvent(w: Extract<Awaiting, { kind: 'usage_limit' }>): WaitingEvent {
  return {
    event: 'waiting',
    reason: 'usage_limit',
    until: w.until,
    reset_at: w.resetAt,
    role: w.role,
    action: w.action.kind,
    message: w.message,
  };
}

export function doneEvent(
  state: { phase: Phase; iteration: number; steps: StepInfo[]; usage: UsageTotals },
  exitCode: number,
): DoneEvent {
  return {
    event: 'done',
    phase: state.phase,
    iteration: state.iteration,
    exit_code: exitCode,
    steps: state.steps,
    usage: state.usage,
  };
}
