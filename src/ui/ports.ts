// What the TUI needs from the outside: an engine-like object and a reader of the workflow files. Tests pass a
// real Engine over fake agents, or a fake.
import type { EngineEvent, EngineOutput } from '../core/events.js';
import type { CommitDiff } from '../core/commit-diff.js';
import type { ReportCommit } from '../core/run-report.js';
import type { WorkflowState } from '../core/types.js';

export interface EngineLike {
  readonly state: WorkflowState;
  dispatch(event: EngineEvent): Promise<boolean>;
  subscribe(listener: (out: EngineOutput) => void): () => void;
}

/** The files the TUI shows; `debug` is the tail of debug.log. */
export type WatchedFile = 'plan' | 'comments' | 'log' | 'debug';

export interface FilesReader {
  readPlan(): Promise<string | null>;
  readComments(): Promise<string | null>;
  readLog(): Promise<string | null>;
  /** The last lines of debug.log (bounded, read from the end of the file), or null when there is none. */
  readDebugTail?(): Promise<string | null>;
  /** A step commit's files and patch (read from git, up to a cap) for the Diff tab; null when it cannot be read. */
  readCommitDiff?(commit: string): Promise<CommitDiff | null>;
  /** The run's `[Step N]` commits in git (oldest first, found by its trailer), or null when git cannot say. */
  readRunCommits?(runId: string): Promise<ReportCommit[] | null>;
  /** Calls `onChange` when a workflow file changes on disk (e.g. chokidar); returns the unsubscribe. */
  watch?(onChange: (file: WatchedFile) => void): () => void;
}

export type EditableFile = 'plan' | 'comments';

/** The earlier goals and messages, newest first, that ↑/↓ go through in a text box; `add` keeps a sent one. */
export interface InputHistory {
  entries(): readonly string[];
  add(text: string): void;
}
