// The library API's option and result types (`import { run } from 'agent-collab'`; docs/api.md).
import type { Config } from '../persistence/config-schema.js';
import type { DeepPartial } from '../persistence/deep-merge.js';
import type { Phase } from '../core/types.js';
import type { NeedsHumanEvent, RunEvent } from '../modes/run-events.js';

/**
 * What `decide` returns: a `--decide` choice ("approve", "continue:2", "retry", "cancel", …), `{ answer }` for an
 * agent's question, or nothing: the run then ends where it waits (exit code 3), to be resumed later.
 */
export type DecideAnswer = string | { answer: string } | null | undefined | void;

export interface RunOptions {
  /** A directory inside the git repository to work in. */
  cwd: string;
  /** The goal of a new run (not needed to resume one). */
  goal?: string;
  /** Run every round and step without waiting for a go (`--auto`); default false: one round, then a `go` question. */
  auto?: boolean;
  /** Execute an approved plan without waiting for a go (`--auto-approve`); default: the config's. */
  autoApprove?: boolean;
  /** The review rounds before the iteration cap asks (`--max-iterations`, 1–100); default: the config's. */
  maxIterations?: number;
  /** Go on with the repo's unfinished run (`--resume`). Without it (nor `fresh`), an unfinished run ends with exit 3. */
  resume?: boolean;
  /** Archive the repo's unfinished run and start a new one (`--fresh`). */
  fresh?: boolean;
  /** Config overrides, above the user's and the project's config.toml: `{ roles: { planner: 'codex' } }`. */
  config?: DeepPartial<Config>;
  /** Every event of the run, the objects `agent-collab run --json` prints. */
  onEvent?: (event: RunEvent) => void;
  /** Asked where the run would wait for a person, with the `needs_human` event. */
  decide?: (needsHuman: NeedsHumanEvent) => DecideAnswer | Promise<DecideAnswer>;
  /** Aborting it stops the run and saves it like Ctrl+C: run() resolves with exit code 130. */
  signal?: AbortSignal;
  /**
   * Run in a new worktree on a new branch `agent-collab/<name>` (`--worktree [name]`): `true` names it after the
   * goal, a string names it. The person's checkout is not touched; the result's `worktree` says where it is.
   */
  worktree?: boolean | string;
}

/** Where a `worktree` run ran: its worktree's path and branch (which keeps the `[Step N]` commits). */
export interface RunWorktreeInfo {
  path: string;
  branch: string;
}

export interface RunStep {
  number: number;
  title: string;
  /** `in_progress`: the step under way when the run stopped. */
  status: 'done' | 'skipped' | 'in_progress' | 'pending';
  /** The `[Step N]` commit's hash; null when not committed (or nothing to commit). */
  commit: string | null;
}

export interface UsageNumbers {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  costUsd: number;
  /** Agent time: the sum of the rounds' wall times. */
  agentMs: number;
}

/** Who played a role (model and effort "" = the CLI's default) and what it used. */
export interface RoleUsage extends UsageNumbers {
  agent: string;
  model: string;
  effort: string;
}

export interface RunUsage {
  planner: RoleUsage;
  reviewer: RoleUsage;
  total: UsageNumbers;
}

export interface RunResult {
  /** The phase the run stopped in: DONE, CANCELLED, or where it waits or was stopped. */
  phase: Phase;
  /** The CLI's exit code: 0 done, 3 needs a person, 4 agent failure, 130 interrupted (see EXIT). */
  exitCode: number;
  steps: RunStep[];
  usage: RunUsage;
  /** The run report (.agent-collab/runs/<run id>/report.md); null when the run is not over (exit code 3). */
  report: string | null;
  /** With the `worktree` option: where the run ran; else null. */
  worktree: RunWorktreeInfo | null;
}
