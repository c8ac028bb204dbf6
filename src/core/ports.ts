// The interfaces through which the effect runner reaches the outside world.
// Implementations live in src/persistence (files, artifacts), src/adapters/git (the step workspace) and src/adapters
// (agents, the test runner).
import type { PromptName } from './prompt-template.js';
import type { RepoSnapshot } from './repo-invariants.js';
import type {
  ExternalChangeChoice,
  LargeChange,
  Role,
  SecretFinding,
  StepInfo,
  Verdict,
  WorkflowState,
} from './types.js';

export interface WorkflowFiles {
  saveState(state: WorkflowState): Promise<void>;
  /** plan.md's body (frontmatter stripped), or null when there is none. */
  readPlan(): Promise<string | null>;
  readComments(): Promise<string | null>;
  writePlan(body: string, iteration: number): Promise<void>;
  writeComments(body: string, verdict: Verdict, iteration: number): Promise<void>;
  /** Writes .agent-collab/ledger.md (the issue ledger rendered from the state); missing: no ledger file is kept. */
  writeLedger?(text: string): Promise<void>;
  setPlanStatus(status: 'draft' | 'reviewing' | 'approved'): Promise<void>;
  readSteps(): Promise<StepInfo[]>;
  markStepDone(step: number, commit: string | null): Promise<void>;
  markStepSkipped(step: number): Promise<void>;
  /** Appends open steps (a code review's fix steps) to plan.md's `## Steps`. */
  appendSteps(titles: string[]): Promise<void>;
  /** The person's edit of the file is accepted as the new base (after editing the plan by hand). */
  acceptEdit(file: 'plan' | 'comments'): Promise<void>;
  /** True when the file's body differs from what agent-collab last wrote or read as the person's edit. */
  changedOutside(file: 'plan' | 'comments'): Promise<boolean>;
  /**
   * The body to use when the person changed `file` outside while an agent wrote `incoming`: `overwrite` → incoming
   * (the person's version is kept as a backup file), `discard` → the person's version, `merge` → a three-way merge.
   * A merge with conflicts resolves to `conflicts` instead: the file then holds the merge with its conflicts marked
   * `<<<<<<<` / `>>>>>>>`, for the person to resolve, and the person's version (`yours`) is kept as `backup`.
   */
  resolveExternal(
    file: 'plan' | 'comments',
    incoming: string,
    choice: ExternalChangeChoice,
  ): Promise<string | { conflicts: number; yours: string; backup: string }>;
  appendLog(title: string, lines: string[]): Promise<void>;
  /** Moves the run's files to history/; returns where they went. */
  archive(state: WorkflowState): Promise<string>;
  /** Raw agent output and engine diagnostics, for debug.log. */
  debug(source: string, line: string): void;
}

export interface Prompts {
  render(name: PromptName, vars: Record<string, string | number>): Promise<string>;
}

/** The code a reviewer reads: a text diff (binary files only named), read up to a cap. */
export interface ReviewChanges {
  /** Every file changed, read or not. */
  files: string[];
  patch: string;
  /** The patch was cut at the cap: some files' changes were not read. */
  truncated: boolean;
}

/** Whose changes a code review reads: a step's since its snapshot, or what a run committed. */
export type ReviewRange =
  { kind: 'step'; baseTree: string } | { kind: 'run'; runId: string; withWorkingTree?: boolean };

/** A step's changes, measured against the working tree as it was before the step (agent-collab's files excluded). */
export interface StepChanges {
  files: string[];
  /** `git diff --binary` from the base tree to the working tree now. */
  patch: string;
}

export type StepCommitResult =
  /** `files` and `patch` are what this call committed; absent when the commit already existed (a restart). */
  | { kind: 'committed'; hash: string; files?: string[]; patch?: string }
  | { kind: 'nothing' }
  | { kind: 'secrets'; findings: SecretFinding[] }
  /** The agent's hunks meet the person's own edits in these files: the person decides. */
  | { kind: 'overlap'; files: string[] }
  /** A file over `[safety] max_file_size` or more than `max_files_per_step` files: the person decides. */
  | { kind: 'large'; large: LargeChange }
  | { kind: 'failed'; message: string }
  /** The commit's hooks changed git's config, hooks or refs beyond the commit: all undone, the commit too. */
  | { kind: 'forbidden'; changes: string[]; undone: string[] };

export interface StepCommitOptions {
  runId: string;
  step: number;
  summary: string;
  baseTree: string | null;
  /** When the step started (`StepRun.startedAt`): with the base, tells this plan's step N from an earlier plan's. */
  startedAt?: string | null;
  allowSecrets: boolean;
  /** Files where the agent's hunks meet the person's are committed whole (the person chose "commit both"). */
  commitBoth?: boolean;
  /** The size limits are not applied (the person chose to commit a large change). */
  allowLarge?: boolean;
  /** The step's signal: aborting it (Stop, shutdown) kills git, its hooks and gpg. */
  signal?: AbortSignal;
}

/** Git work of the executor: snapshot before a step, commit only the step's changes, roll a step back. */
export interface StepWorkspace {
  /** The working tree now as a git tree id (untracked files included, ignored and agent-collab's files excluded). */
  snapshot(signal?: AbortSignal): Promise<string>;
  changedSince(baseTree: string): Promise<StepChanges>;
  /** The diff a code review reads: `range`'s changes, stopped by `signal`, at most `maxBytes` of patch read. */
  reviewDiff(range: ReviewRange, opts: { signal: AbortSignal; maxBytes: number }): Promise<ReviewChanges>;
  /**
   * Commits exactly the hunks changed since `baseTree` as `[Step N] <summary>`: HEAD plus the agent's hunks; the
   * person's own edits from before the step (staged, unstaged, untracked) stay as they were, and the index gets the
   * agent's hunks too. Refuses to commit into an unsafe repository state (a rebase, a merge…: `failed`), holds a
   * change whose hunks meet the person's (`overlap`) or that is too large (`large`), and scans the commit's patch for
   * secrets unless `allowSecrets`.
   * Idempotent per (runId, step, baseTree, startedAt): when that commit exists (a restart after a crash), its hash is
   * returned and nothing new is made; a later plan's step N in the same run started anew, so it gets its own commit.
   */
  commitStep(opts: StepCommitOptions): Promise<StepCommitResult>;
  /** Puts every file changed since `baseTree` back as it was in `baseTree` (files added by the step are removed). */
  rollback(baseTree: string): Promise<string[]>;
}

export interface TestRunResult {
  passed: boolean;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** Bounded (head + tail with a marker) for prompts and the UI; the full output goes to `fullOutputFile`. */
  output: string;
}

export interface TestRunner {
  /** The configured command, or the one detected from the repo's files; null when there is none. */
  resolve(): Promise<{ command: string; source: 'config' | 'detected' } | null>;
  /** An aborted `signal` stops the run, or keeps it from starting. */
  run(command: string, opts: { fullOutputFile: string | null; signal?: AbortSignal }): Promise<TestRunResult>;
  /** Stops a test run under way (its whole process group). */
  stop(): Promise<void>;
}

/** `.agent-collab/runs/<run-id>/`: per step attempt the prompt, raw events, test output, patch, verdict; a timeline. */
export interface Artifacts {
  /** The attempt's directory, created on first use. */
  attemptDir(step: number, attempt: number): Promise<string>;
  write(step: number, attempt: number, name: string, content: string): Promise<void>;
  /** Like write, for the only copy of something (a rolled-back step's patch): on disk when it resolves, else it rejects. */
  keep(step: number, attempt: number, name: string, content: string): Promise<void>;
  appendEvent(step: number, attempt: number, event: unknown): void;
  timeline(line: string): Promise<void>;
  /** Resolves once everything written or appended so far is on disk. */
  flush(): Promise<void>;
}

/** A command about to run (an agent's tool call seen by the PreToolUse hook, or agent-collab's own test command). */
export interface CommandCheck {
  role: Role | 'agent-collab';
  command: string;
  cwd: string;
  /**
   * agent-collab's own step commit or rollback, done because the person decided so: the built-in confirmation
   * rule ("discards work") does not hold it; the configured rules and every blocking rule still apply.
   */
  own?: boolean;
}

export type CommandVerdict = { allow: true } | { allow: false; reason: string };

/** Decides whether a command may run; may wait for the person. Never throws: a failure is a deny. */
export type CommandGate = (check: CommandCheck) => Promise<CommandVerdict>;

/** What a write turn must leave alone, as taken before it (the adapter keeps what it needs to restore it). */
export interface RepoBaselineOf {
  readonly snapshot: RepoSnapshot;
}

/** Takes the repository's state before a write turn, tells what changed since, and puts back what the agent changed. */
export interface RepoGuard {
  take(signal?: AbortSignal): Promise<RepoBaselineOf>;
  /** `changes`: one line per difference (core/repo-invariants.ts), [] when nothing changed. */
  compare(before: RepoBaselineOf, signal?: AbortSignal): Promise<{ after: RepoBaselineOf; changes: string[] }>;
  /** Restores what changed between the two; resolves to what it did and what it left, one line each. */
  restore(before: RepoBaselineOf, after: RepoBaselineOf): Promise<string[]>;
}
