// The interfaces through which the effect runner reaches the outside world.
// Implementations live in src/persistence (files), src/engine/git.ts (git) and src/adapters (agents).
import type { PromptName } from './prompts.js';
import type { StepInfo, Verdict, WorkflowState } from './types.js';

export interface WorkflowFiles {
  saveState(state: WorkflowState): Promise<void>;
  /** plan.md's body (frontmatter stripped), or null when there is none. */
  readPlan(): Promise<string | null>;
  readComments(): Promise<string | null>;
  writePlan(body: string, iteration: number): Promise<void>;
  writeComments(body: string, verdict: Verdict, iteration: number): Promise<void>;
  setPlanStatus(status: 'draft' | 'reviewing' | 'approved'): Promise<void>;
  readSteps(): Promise<StepInfo[]>;
  markStepDone(step: number, commit: string | null): Promise<void>;
  appendLog(title: string, lines: string[]): Promise<void>;
  /** Moves the run's files to history/; returns where they went. */
  archive(state: WorkflowState): Promise<string>;
  /** Raw agent output and engine diagnostics, for debug.log. */
  debug(source: string, line: string): void;
}

export interface GitOps {
  /**
   * Commits the working tree's changes for a step (agent-collab's own files excluded) as `[Step N] <summary>`.
   * Returns the commit hash, or null when there was nothing to commit. Idempotent per (runId, step):
   * when that step's commit already exists (a restart after a crash), its hash is returned and nothing new is made.
   */
  commitStep(opts: { runId: string; step: number; summary: string }): Promise<string | null>;
}

export interface Prompts {
  render(name: PromptName, vars: Record<string, string | number>): Promise<string>;
}
