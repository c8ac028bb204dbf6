import type { BudgetKind } from './budget.js';
import type { RunEnding, RunReportWritten } from './run-report.js';
import type { DecideEvent } from './decisions.js';
import type {
  Action,
  AgentEvent,
  ExternalChangeChoice,
  FailureKind,
  LargeChange,
  PendingCommand,
  Role,
  SecretFinding,
  StepFailureCategory,
  StepInfo,
  UsageTotals,
  Verdict,
  WorkflowState,
} from './types.js';

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
  /** Esc: stop the agent round under way, keep the phase, and ask the person (run it again, with a message, or stop). */
  | { type: 'interrupt' }
  | { type: 'cancel' }
  /** The person's choice at one of the questions of decisions.ts. */
  | DecideEvent
  | { type: 'answer'; text: string }
  // results of effects
  | { type: 'session'; role: Role; sessionId: string }
  | {
      type: 'usage';
      role: Role;
      inputTokens: number;
      outputTokens: number;
      cachedTokens: number;
      costUsd: number;
      durationMs: number;
      /** Reported with the turn's answer: reaching a budget cap here stops the next round, not this one. */
      roundEnded?: boolean;
    }
  /**
   * Agent time of the round under way (core/budget.ts), reported while it streams and when it ends; `roundEnded`:
   * the round has its outcome, so reaching the cap here stops the next round, not this one.
   */
  | { type: 'worked'; ms: number; roundEnded?: boolean; role?: Role }
  /** Are the budgets still spent? Sent on resume: a cap raised in the config lets the stopped round run. */
  | { type: 'budget_check' }
  | { type: 'agent_done'; role: Role; action: Action; text: string }
  | { type: 'agent_question'; role: Role; action: Action; text: string }
  /** `resetAt`: when a usage limit resets, if the CLI said; `at`: when the round failed (the engine's clock). */
  | {
      type: 'agent_failed';
      role: Role;
      action: Action;
      kind: FailureKind;
      message: string;
      resetAt?: string;
      at?: string;
    }
  /** The wake-up time of a run parked at a usage limit has come (engine/reset-timer.ts). */
  | { type: 'limit_reset'; until: string }
  | { type: 'steps_loaded'; steps: StepInfo[] }
  /** The diff the code reviewer is about to be given (bounded), and the files it changes. */
  | { type: 'code_diff'; step: number | null; diff: string; files: string[] }
  | { type: 'step_committed'; step: number; commit: string | null; files?: string[]; at?: string }
  /** The working tree was snapshotted before a step's first attempt. */
  | { type: 'step_started'; step: number; baseTree: string | null; at: string }
  | {
      type: 'tests_done';
      step: number;
      attempt: number;
      command: string;
      passed: boolean;
      output: string;
      durationMs: number;
      timedOut: boolean;
      /** The test command's exit code (null: killed, or unknown). */
      exitCode?: number | null;
    }
  /** No test command is configured or detected. */
  | { type: 'no_test_command'; step: number }
  | { type: 'secrets_found'; step: number; findings: SecretFinding[] }
  | { type: 'commit_failed'; step: number; message: string }
  /** The agent's hunks meet the person's own edits in these files: the commit waits for the person. */
  | { type: 'hunks_overlap'; step: number; files: string[] }
  /** The step's change is over the size limits: the commit waits for the person. */
  | { type: 'large_change'; step: number; large: LargeChange }
  | { type: 'step_rolled_back'; step: number; files: string[] }
  /** A step attempt ended without passing (agent failure, policy, timeout…): counted like a failed test run. */
  | { type: 'attempt_failed'; step: number; attempt: number; category: StepFailureCategory; message: string }
  | { type: 'external_change'; role: Role; action: Action; file: 'plan' | 'comments'; text: string }
  /** The merge of an outside edit left conflicts (now marked in the file). */
  | ({ type: 'merge_conflicts' } & MergeConflict)
  /** A write turn (or what ran up to the commit) changed what it must not; `undone`: what agent-collab restored. */
  | { type: 'forbidden_change'; step: number; attempt: number; changes: string[]; undone: string[] }
  | { type: 'command_held'; command: PendingCommand }
  | { type: 'command_denied'; id: string | null; command: string; reason: string }
  | { type: 'engine_failed'; action: Action | null; message: string };

export type EngineEventType = EngineEvent['type'];

/** An outside edit merged with an agent's version, with conflicts: `text` the agent's version, `yours` the person's. */
export interface MergeConflict {
  role: Role;
  action: Action;
  file: 'plan' | 'comments';
  text: string;
  yours: string;
  conflicts: number;
}

/** What the engine asks its runner to do. Pure data; the runner performs them in order. */
export type Effect =
  | { type: 'run_agent'; role: Role; action: Action }
  | { type: 'write_plan'; text: string; iteration: number }
  | { type: 'write_comments'; text: string; verdict: Verdict; iteration: number }
  | { type: 'set_plan_status'; status: 'draft' | 'reviewing' | 'approved' }
  | { type: 'load_steps' }
  /** Fix steps from a code review, appended to plan.md's steps (their titles say so). */
  | { type: 'append_steps'; titles: string[] }
  | { type: 'commit_step'; step: number; summary: string; allowSecrets: boolean }
  | { type: 'run_tests'; step: number; attempt: number }
  | { type: 'rollback_step'; step: number }
  | {
      type: 'merge_external';
      role: Role;
      action: Action;
      file: 'plan' | 'comments';
      text: string;
      choice: ExternalChangeChoice;
    }
  /** The person's answer to a merge that left conflicts: read the resolved file, or take one side. */
  | ({ type: 'resolve_conflicts'; choice: 'resolved' | 'keep-mine' | 'keep-agent' } & MergeConflict)
  /** Answers the hook that is waiting on a held command. */
  | { type: 'answer_command'; id: string; allow: boolean; reason: string }
  | { type: 'mark_step_skipped'; step: number }
  | { type: 'accept_edit'; file: 'plan' | 'comments' }
  | { type: 'mark_step_done'; step: number; commit: string | null }
  | { type: 'log'; title: string; lines?: string[] }
  | { type: 'stop_agents' }
  /**
   * The run ended (done, stopped by the person, cancelled): its report is written to runs/<run id>/report.md
   * (core/run-report.ts). `reason`: why it ended, in a line; `step`: the step under way when it was stopped.
   */
  | { type: 'report'; ending: RunEnding; reason: string; step: number | null }
  | { type: 'archive' }
  | { type: 'notify'; notice: Notice };

/** Things worth telling the person (UI) or the NDJSON stream that are not visible in the state itself. */
export type Notice =
  | { kind: 'verdict'; iteration: number; verdict: Verdict | 'UNCLEAR'; marker: boolean }
  /** A code review's verdict: `step` null for the run's diff, else the step's. */
  | { kind: 'code_verdict'; round: number; step: number | null; verdict: Verdict | 'UNCLEAR'; marker: boolean }
  | { kind: 'info'; message: string }
  /** A command was checked against [safety]: what was decided and why. */
  | {
      kind: 'command';
      role: Role | 'agent-collab';
      command: string;
      decision: 'allow' | 'deny';
      rule: string | null;
      reason: string;
    }
  /** A budget reached 80% of its cap (`reached: false`) or its cap (`reached: true`). */
  | { kind: 'budget'; budget: BudgetKind; spent: number; cap: number; reached: boolean; message: string }
  | { kind: 'tests'; step: number; attempt: number; command: string; passed: boolean; durationMs: number }
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
  /** `exitCode`: the documented code for it when the error says (a UserError); else an agent failure (4). */
  | { type: 'error'; message: string; exitCode?: number }
  | { type: 'finished'; phase: 'DONE' | 'CANCELLED' }
  /** The run's report was written (core/run-report.ts): where, its status and the key numbers. */
  | ({ type: 'report' } & RunReportWritten);
