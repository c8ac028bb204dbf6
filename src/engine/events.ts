import type { Action, AgentEvent, ArbitrationChoice, FailureKind, Role, StepInfo, UsageTotals, Verdict, WorkflowState } from './types.js';

/** Everything that can happen to the workflow: user commands and results of effects. */
export type EngineEvent =
  // user commands
  | { type: 'start'; goal: string }
  | { type: 'user_message'; text: string }
  | { type: 'goal_ready'; goal?: string }
  | { type: 'go' }
  | { type: 'set_mode'; mode: 'manual' | 'auto' }
  | { type: 'pause' }
  | { type: 'stop' }
  | { type: 'cancel' }
  | { type: 'arbitrate'; choice: ArbitrationChoice; rounds?: number }
  | { type: 'edit_done' }
  | { type: 'answer'; text: string }
  | { type: 'unclear_choice'; choice: 'retry' | 'changes_required' }
  // results of effects
  | { type: 'session'; role: Role; sessionId: string }
  | { type: 'usage'; role: Role; inputTokens: number; outputTokens: number; cachedTokens: number; costUsd: number; durationMs: number }
  | { type: 'agent_done'; role: Role; action: Action; text: string }
  | { type: 'agent_question'; role: Role; action: Action; text: string }
  | { type: 'agent_failed'; role: Role; action: Action; kind: FailureKind; message: string }
  | { type: 'steps_loaded'; steps: StepInfo[] }
  | { type: 'step_committed'; step: number; commit: string | null }
  | { type: 'engine_failed'; action: Action | null; message: string };

export type EngineEventType = EngineEvent['type'];

/** What the engine asks its runner to do. Pure data; the runner performs them in order. */
export type Effect =
  | { type: 'run_agent'; role: Role; action: Action }
  | { type: 'write_plan'; text: string; iteration: number }
  | { type: 'write_comments'; text: string; verdict: Verdict; iteration: number }
  | { type: 'set_plan_status'; status: 'draft' | 'reviewing' | 'approved' }
  | { type: 'load_steps' }
  | { type: 'commit_step'; step: number; summary: string }
  | { type: 'mark_step_done'; step: number; commit: string | null }
  | { type: 'log'; title: string; lines?: string[] }
  | { type: 'stop_agents' }
  | { type: 'archive' }
  | { type: 'notify'; notice: Notice };

/** Things worth telling the person (UI) or the NDJSON stream that are not visible in the state itself. */
export type Notice =
  | { kind: 'verdict'; iteration: number; verdict: Verdict | 'UNCLEAR'; marker: boolean }
  | { kind: 'info'; message: string }
  /** One agent round finished (or failed): what it used. */
  | { kind: 'round'; role: Role; action: Action['kind']; outcome: 'done' | 'question' | 'failed'; usage: RoundUsage };

/** What one round used; durationMs is the round's wall time as agent-collab saw it, retries included. */
export type RoundUsage = UsageTotals;

/** What the engine publishes to the UI / headless output. */
export type EngineOutput =
  | { type: 'phase'; from: WorkflowState['phase']; to: WorkflowState['phase']; iteration: number }
  | { type: 'state'; state: WorkflowState }
  | { type: 'agent_event'; role: Role; event: AgentEvent }
  | { type: 'notice'; notice: Notice }
  | { type: 'awaiting'; awaiting: NonNullable<WorkflowState['awaiting']>; phase: WorkflowState['phase'] }
  | { type: 'rejected'; event: EngineEventType; message: string }
  | { type: 'error'; message: string }
  | { type: 'finished'; phase: 'DONE' | 'CANCELLED' };
