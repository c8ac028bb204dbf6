// Core types shared by the engine, adapters, persistence and the UI/modes layers.
// Pure data only: no I/O here.

export const PHASES = [
  'INIT',
  'REFINE_GOAL',
  'WRITE_PLAN',
  'REVIEW',
  'RESPOND',
  'APPROVED',
  'EXECUTE',
  'DONE',
  'CANCELLED',
] as const;
export type Phase = (typeof PHASES)[number];

export type Role = 'planner' | 'reviewer';
export type Mode = 'manual' | 'auto';

/** One agent round the engine can run. `answer` is set when the user answered the agent's question. */
export type Action =
  | { kind: 'refine'; message: string; answer?: string }
  | { kind: 'write_plan'; answer?: string }
  | { kind: 'review'; reask?: boolean; answer?: string }
  | { kind: 'respond'; answer?: string }
  | { kind: 'execute_step'; step: number; answer?: string }
  | { kind: 'commit_step'; step: number; summary: string };

export type TurnKind = Exclude<Action['kind'], 'commit_step'>;

export type FailureKind =
  | 'agent_error'
  | 'infra'
  | 'usage_limit'
  | 'auth'
  | 'timeout'
  | 'idle'
  | 'missing_binary'
  | 'session_lost';

export type ArbitrationChoice = 'force_approve' | 'continue' | 'edit' | 'cancel';

/** What the engine waits for from the person. `null` in `awaiting` means: nothing, it is working or finished. */
export type Awaiting =
  | { kind: 'goal' } // REFINE_GOAL: a message for the planner, or "goal is ready"
  | { kind: 'go'; action: Action } // manual gate before the next agent round
  | { kind: 'arbitration'; iteration: number }
  | { kind: 'manual_edit' } // the person edits plan.md, then says edit_done
  | { kind: 'question'; role: Role; text: string; action: Action }
  | { kind: 'unclear_verdict'; text: string; action: Action }
  | { kind: 'failure'; role: Role | null; failure: FailureKind | 'engine'; message: string; action: Action | null };

export interface StepInfo {
  n: number;
  title: string;
  done: boolean;
  commit?: string | null;
}

export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  costUsd: number;
  durationMs: number;
  calls: number;
}

export interface WorkflowState {
  schemaVersion: 1;
  runId: string;
  phase: Phase;
  /** Review rounds that ended in a real verdict. */
  iteration: number;
  maxIterations: number;
  mode: Mode;
  /** Auto mode was asked to pause: it becomes manual at the next safe point. */
  pauseRequested: boolean;
  goal: string;
  /** The planner's last restatement of the goal during refinement, if any. */
  refinedGoal: string | null;
  sessions: { planner: string | null; reviewer: string | null };
  currentStep: number | null;
  steps: StepInfo[];
  /** The agent round (or commit) under way; on restart it is run again. */
  inflight: Action | null;
  awaiting: Awaiting | null;
  /** The reviewer's answer could not be parsed this many times in the current round. */
  unclearCount: number;
  lastVerdict: Verdict | null;
  usage: UsageTotals;
  createdAt: string;
  updatedAt: string;
}

export type Verdict = 'APPROVED' | 'CHANGES_REQUIRED';

/** Normalized events every adapter produces. */
export type AgentEvent =
  | { type: 'session'; sessionId: string }
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool_call'; id?: string; name: string; input: unknown }
  | { type: 'tool_result'; id?: string; output: string; isError: boolean }
  | { type: 'command'; id?: string; command: string; status: 'started' | 'completed' | 'failed'; exitCode?: number | null; output?: string }
  | { type: 'file_change'; path: string; kind: 'add' | 'update' | 'delete' }
  | { type: 'question'; text: string }
  | { type: 'usage'; inputTokens: number; outputTokens: number; cachedTokens?: number; costUsd?: number; durationMs?: number }
  | { type: 'error'; kind: FailureKind; message: string; resetAt?: string }
  | { type: 'done'; sessionId: string | null; text: string };

export type Access = 'read-only' | 'workspace-write';

export interface AgentTurn {
  prompt: string;
  cwd: string;
  access: Access;
  /** What this turn is for; adapters may ignore it, the fake agent scripts on it. */
  meta: { role: Role; kind: TurnKind; iteration: number; step: number | null };
}

/** The interface the engine uses to talk to a coding agent. */
export interface Agent {
  readonly name: string;
  start(turn: AgentTurn): AsyncIterable<AgentEvent>;
  resume(sessionId: string, turn: AgentTurn): AsyncIterable<AgentEvent>;
  /** Stops whatever this agent is running; safe to call when idle. */
  stop(): Promise<void>;
}
