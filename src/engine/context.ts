// What the parts of the engine share: its ports, the state now, the event queue and the subscribers.
import type { EngineEvent, EngineOutput } from '../core/events.js';
import type { Artifacts, Prompts, RepoGuard, StepWorkspace, TestRunner, WorkflowFiles } from '../core/ports.js';
import type { TransitionOptions } from '../core/transition.js';
import type { Agent, Role, WorkflowState } from '../core/types.js';
import type { CommandPolicy } from './command-gate.js';
import type { WorkClock } from './work-clock.js';
import type { RunReports } from './run-report.js';

export interface EngineDeps {
  repoRoot: string;
  files: WorkflowFiles;
  prompts: Prompts;
  agents: Record<Role, Agent>;
  options: TransitionOptions;
  /**
   * Service errors (failure kind `infra`) are retried this many times, waiting backoffMs, 2×, 4×, … A CLI that
   * announces a wait before its own retry over maxRetryWaitMs (default 60 s; its waits in one turn added up) is
   * stopped instead.
   */
  retry?: { infraRetries: number; backoffMs: number; maxRetryWaitMs?: number };
  /** Snapshots the work tree before a step, commits only the step's changes, rolls a step back. */
  workspace: StepWorkspace;
  /**
   * Checks after each write turn and before each step commit that the agent left HEAD, the branch, the refs, the
   * worktrees, the stash and agent-collab's files alone; without it nothing is checked.
   */
  repoGuard?: RepoGuard;
  /** Runs the tests after each step; without it, steps are not tested. */
  tests?: TestRunner;
  /** Per step attempt artifacts under runs/<run id>/. */
  artifacts?: Artifacts;
  /** Writes a run's report when it ends (runs/<run id>/report.md); without it no report is written. */
  reports?: RunReports;
  /** The [safety] policy for commands; without it every command is denied (fail closed). */
  commands?: CommandPolicy;
  now?: () => Date;
  /**
   * Settles once the output the engine's subscribers wrote has been taken (undefined: at once). Awaited after each
   * agent event, so an agent's output is read no faster than a slow `--json` reader takes it: the CLI waits on its
   * pipe instead of agent-collab buffering its output in memory.
   */
  outputDrained?: () => Promise<void> | undefined;
}

export interface EngineContext {
  readonly deps: EngineDeps;
  /** The state as last applied. */
  state(): WorkflowState;
  /** Queues an event; resolves false when it was rejected. */
  dispatch(event: EngineEvent): Promise<boolean>;
  emit(out: EngineOutput): void;
  nowIso(): string;
  /** The minutes budget's clock: stopped while the run waits on the person (a held command). */
  readonly workClock: WorkClock;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
