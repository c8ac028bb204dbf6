// Core types shared by the engine, adapters, persistence and the UI/modes layers.
// Pure data only: no I/O here.
import type { BudgetKind } from './budget.js';
import type { ChoiceId } from './decisions.js';
import type { Ledger } from './ledger.js';
import type { Dispute } from './stagnation.js';

export const PHASES = [
  'INIT',
  'REFINE_GOAL',
  'WRITE_PLAN',
  'REVIEW',
  'RESPOND',
  'APPROVED',
  'EXECUTE',
  /** The reviewer reads the code: the run's diff after the last step ("final"), or a step's before its commit ("each"). */
  'CODE_REVIEW',
  'DONE',
  'CANCELLED',
] as const;
export type Phase = (typeof PHASES)[number];

export type Role = 'planner' | 'reviewer';
export type Mode = 'manual' | 'auto';

/**
 * One agent round the engine can run. `answer` is set when the user answered the agent's question; `note` when the
 * person interrupted the round (Esc) and sent it again with a message: it is added to the round's prompt.
 */
export type Action =
  | { kind: 'refine'; message: string; answer?: string; note?: string }
  | { kind: 'write_plan'; answer?: string; note?: string }
  | { kind: 'review'; reask?: boolean; answer?: string; note?: string }
  | { kind: 'respond'; answer?: string; note?: string }
  /**
   * `attempt` counts from 1; `feedback` is the failing test output (bounded) fed back on a retry; `review`: the code
   * reviewer's comments on the step's diff, fed back on the attempt that addresses them.
   */
  | {
      kind: 'execute_step';
      step: number;
      attempt?: number;
      feedback?: string;
      review?: string;
      answer?: string;
      note?: string;
    }
  /** The reviewer reads the code: `step` null for the run's diff after the last step, else that step's diff. */
  | { kind: 'code_review'; step: number | null; reask?: boolean; answer?: string; note?: string }
  /** The planner turns the code reviewer's comments into fix steps appended to plan.md. */
  | { kind: 'code_fix'; answer?: string; note?: string }
  /** The planner is asked which command tests this repository (nothing configured or detected). */
  | { kind: 'ask_test_command'; step: number; answer?: string; note?: string }
  // agent-collab's own work during execution (no agent round):
  | { kind: 'run_tests'; step: number; attempt: number }
  /** `allowSecrets`: the person said to commit although the secret scan found something. */
  | { kind: 'commit_step'; step: number; summary: string; allowSecrets?: boolean }
  | { kind: 'rollback_step'; step: number };

/** Actions that are an agent round (the others are agent-collab's own work). */
export type AgentActionKind =
  'refine' | 'write_plan' | 'review' | 'respond' | 'execute_step' | 'code_review' | 'code_fix' | 'ask_test_command';
export type TurnKind = AgentActionKind;

export function isAgentAction(a: Action): a is Extract<Action, { kind: AgentActionKind }> {
  return a.kind !== 'run_tests' && a.kind !== 'commit_step' && a.kind !== 'rollback_step';
}

/** Why an agent call failed; listed once for the type and the schemas that read it back (state, fake scripts). */
export const FAILURE_KINDS = [
  'agent_error',
  'infra',
  'usage_limit',
  'auth',
  'timeout',
  'idle',
  'missing_binary',
  'session_lost',
] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/** Why a step attempt failed (verdict.json's category). */
export type StepFailureCategory = 'test_failure' | 'agent_error' | 'policy_block' | 'timeout' | 'infra';
/** plan.md or comments.md changed outside agent-collab while an agent wrote a new version of it: what to keep. */
export type ExternalChangeChoice = ChoiceId<'external_change'>;

export interface SecretFinding {
  file: string;
  line: number;
  /** e.g. "private key", "AWS access key", ".env file" */
  kind: string;
}

/** A hold of a step commit the person lifted (StepRun.allowed). */
export type CommitAllowance = 'overlap' | 'large';

/** A step change over the `[safety]` limits: its big files with their sizes, and how many files it changes. */
export interface LargeChange {
  files: { path: string; bytes: number }[];
  count: number;
  maxFileBytes: number;
  maxFiles: number;
}

/** A command an agent (or agent-collab itself) wants to run, held until the person decides. */
export interface PendingCommand {
  id: string;
  role: Role | 'agent-collab';
  command: string;
  /** What the policy said: blocked (deny is the default) or needs confirmation. */
  decision: 'block' | 'confirm';
  rule: string;
  reason: string;
}

/** What the engine waits for from the person. `null` in `awaiting` means: nothing, it is working or finished. */
export type Awaiting =
  | { kind: 'goal' } // REFINE_GOAL: a message for the planner, or "goal is ready"
  | { kind: 'go'; action: Action } // manual gate before the next agent round
  | { kind: 'arbitration'; iteration: number }
  | { kind: 'manual_edit' } // the person edits plan.md, then decides `edited`
  /** The code review still asks for changes after `[review] max_code_rounds` rounds (`step` null: the final review). */
  | {
      kind: 'code_review_cap';
      round: number;
      step: number | null;
      /** The planner listed no fix step (it disagreed with every comment): its answer, for the person to read. */
      noFixSteps?: string;
    }
  /**
   * The review loop stopped making progress before its cap (core/stagnation.ts): `reason` says why, `disputes` lists
   * the live ledger entries with the reviewer's point and the planner's answer. `round`: the review's last round.
   */
  | {
      kind: 'disagreement';
      review: 'plan' | 'code';
      step: number | null;
      round: number;
      reason: string;
      disputes: Dispute[];
    }
  /** The person edits the code by hand, then decides `edited`: the diff goes to the reviewer again. */
  | { kind: 'code_edit'; step: number | null }
  | { kind: 'question'; role: Role; text: string; action: Action }
  /** The person interrupted this agent round (Esc): it was stopped, the phase kept; run it again, with a note, or stop. */
  | { kind: 'interrupted'; role: Role; action: Action }
  | { kind: 'unclear_verdict'; text: string; action: Action }
  | { kind: 'failure'; role: Role | null; failure: FailureKind | 'engine'; message: string; action: Action | null }
  /** A step still fails after its retries (or was rolled back and waits for what next). */
  | {
      kind: 'step_failed';
      step: number;
      attempt: number;
      category: StepFailureCategory;
      message: string;
      rolledBack: boolean;
    }
  | { kind: 'secret_found'; step: number; summary: string; findings: SecretFinding[] }
  | { kind: 'commit_failed'; step: number; summary: string; message: string }
  /** The agent's hunks meet lines the person had changed (staged or not) in `files`: nothing was committed. */
  | { kind: 'hunks_overlap'; step: number; summary: string; files: string[] }
  /** The step's change is over `[safety] max_file_size` / `max_files_per_step`: nothing was committed. */
  | { kind: 'large_change'; step: number; summary: string; large: LargeChange }
  | { kind: 'external_change'; file: 'plan' | 'comments'; role: Role; action: Action; text: string }
  /**
   * Merging the person's outside edit with the agent's version left `conflicts` conflicts, marked in the file; the
   * run waits until the person resolves them. `text`: the agent's version; `yours`: the person's.
   */
  | {
      kind: 'merge_conflicts';
      file: 'plan' | 'comments';
      role: Role;
      action: Action;
      text: string;
      yours: string;
      conflicts: number;
    }
  /**
   * The agent changed what a write turn must leave alone (HEAD, a branch, a ref, the stash, a worktree, agent-collab's
   * files): `changes` says what, `undone` what agent-collab restored or could not. The step is not committed.
   */
  | { kind: 'forbidden_change'; step: number; attempt: number; changes: string[]; undone: string[] }
  /**
   * A budget of the run is spent (core/budget.ts): `spent` and `cap` in its unit (tokens, USD, minutes). `action`: the
   * round that was about to start or was stopped while it streamed; raising the cap runs it (again).
   */
  | { kind: 'budget'; budget: BudgetKind; spent: number; cap: number; action: Action }
  /**
   * A usage limit stopped `action`; the CLI said it resets at `resetAt`, so the run is parked until `until` (the reset
   * plus a margin) and then runs `action` again by itself ([limits] wait_for_reset, core/usage-limit.ts).
   */
  | { kind: 'usage_limit'; role: Role; message: string; action: Action; resetAt: string; until: string };

export interface StepInfo {
  n: number;
  title: string;
  done: boolean;
  commit?: string | null;
  /** The person skipped it: its changes were left uncommitted. */
  skipped?: boolean;
}

/** The step being executed: where its changes started and how its attempts went. */
export interface StepRun {
  step: number;
  /** 1-based; a retry after failing tests (or after the code review asked for changes) is the next attempt. */
  attempt: number;
  /** How many of the attempts the code review asked for (`each` mode): they do not use up `[test] max_retries`. */
  reviewAttempts?: number;
  /** Git tree of the working tree before the step's first attempt (agent-collab's files excluded). */
  baseTree: string | null;
  startedAt: string;
  /** The test command of the step's last test run. */
  testCommand: string | null;
  /** Commands denied by the policy during the current attempt. */
  denials: number;
  /** The planner's one-line summary of its last attempt (the commit message). */
  summary: string | null;
  /** The last failing test output (bounded), fed back on the next attempt. */
  feedback: string | null;
  /** "passed", "failed", "none" (no test command) or null before the first test run. */
  testResult: 'passed' | 'failed' | 'none' | null;
  /**
   * What the person allowed for this step's commit: `overlap` commits files where the agent's hunks meet the person's
   * whole; `large` commits past the size limits. Kept across the commit's retries.
   */
  allowed?: CommitAllowance[];
  /** Run totals when the step started, for the step's own tokens and cost in log.md. */
  tokensAtStart: number;
  costAtStart: number;
}

/** `[review] code`: when the reviewer reads the code. */
export type CodeReviewMode = 'final' | 'each' | 'off';

/** The code review of a run (null in the state when `[review] code = "off"`). */
export interface CodeReviewState {
  mode: 'final' | 'each';
  /** `[review] max_code_rounds`: verdicts asking for changes before the person is asked. */
  maxRounds: number;
  /** The cap of the review under way: maxRounds, raised when the person allows more rounds. */
  limit: number;
  /** Verdicts given in the review under way: the run's (final), or the current step's (each). */
  round: number;
  /** each: the step whose diff is under review; null in final mode. */
  step: number | null;
  /** The working tree before the run's first step (a git tree id): the final review's diff is measured from it. */
  baseTree: string | null;
  /** The diff the reviewer was given last (bounded), for the person to read. */
  diff: string | null;
  /** The reviewer's last answer asking for changes: what the fix work addresses. */
  comments: string | null;
  /** One line per committed step on how its tests went, for the final review. */
  tests: string[];
  /** final: the run's code was approved (by the reviewer, or accepted by the person); the run may end. */
  approved: boolean;
  /** final: the person edited the code by hand for the review: their uncommitted changes are reviewed too. */
  edited?: boolean;
}

export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  costUsd: number;
  durationMs: number;
  calls: number;
}

/** What the budgets need beyond the usage totals (core/budget.ts). */
export interface BudgetRecord {
  /** Agent time so far: the sum of the agent rounds' wall times, in ms. */
  workedMs: number;
  /** The same per role (the run report); missing in runs started before it was kept. */
  workedMsByRole?: Partial<Record<Role, number>>;
  /** How many times the person raised each cap in this run (each raise adds the configured cap once more). */
  raises: Partial<Record<BudgetKind, number>>;
  /** The cap at which the 80% notice of each budget was given (given again after a raise). */
  noticedAt: Partial<Record<BudgetKind, number>>;
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
  stepRun: StepRun | null;
  /** A command held for the person's decision while an agent round is under way. */
  pendingCommand: PendingCommand | null;
  /** Commands the person allowed for the rest of the run. */
  allowedCommands: string[];
  /** The test command the planner named when none was configured or detected ("" = the project has no tests). */
  testCommand: string | null;
  /** The agent round (or commit) under way; on restart it is run again. */
  inflight: Action | null;
  awaiting: Awaiting | null;
  /** The reviewer's answer could not be parsed this many times in the current round. */
  unclearCount: number;
  lastVerdict: Verdict | null;
  usage: UsageTotals;
  /** The usage totals of each role (for the run report); missing in runs started before it was kept. */
  roleUsage?: Partial<Record<Role, UsageTotals>>;
  /** The code review (issue 19); null when it is off. */
  codeReview: CodeReviewState | null;
  /** Missing in runs started before budgets existed: nothing spent on them yet. */
  budget?: BudgetRecord;
  /** Usage-limit waits in a row, no round answered since (core/usage-limit.ts); missing = none. */
  limitWaits?: number;
  /** The issue ledger (core/ledger.ts); missing in runs started before it existed, and before the first review. */
  ledger?: Ledger;
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
  | {
      type: 'command';
      id?: string;
      command: string;
      status: 'started' | 'completed' | 'failed';
      exitCode?: number | null;
      output?: string;
    }
  | { type: 'file_change'; path: string; kind: 'add' | 'update' | 'delete' }
  | { type: 'question'; text: string }
  | {
      type: 'usage';
      inputTokens: number;
      outputTokens: number;
      cachedTokens?: number;
      costUsd?: number;
      durationMs?: number;
    }
  | { type: 'error'; kind: FailureKind; message: string; resetAt?: string }
  /**
   * The CLI retries a failed API request by itself (claude's `system/api_retry`, codex's "Reconnecting... N/M").
   * `waitSeconds`: the wait it announced before the retry (null: not said); `kind`: what the error it retries is.
   */
  | {
      type: 'retry';
      attempt: number;
      maxAttempts: number | null;
      status: number | null;
      waitSeconds: number | null;
      kind: FailureKind;
      message: string;
    }
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
