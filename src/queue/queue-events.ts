// The events of `agent-collab queue --json`, typed: one NDJSON line each. The queue's own events say which
// instruction starts and how it ended; every event of an instruction's run (modes/run-events.ts `RunEvent`) is passed
// on with the instruction's name added.
import type { RunEvent } from '../modes/run-events.js';

/** SUCCESS / PARTIAL / FAILED as the run report says; WAITING: needs a person; INTERRUPTED: stopped by Ctrl+C. */
export type InstructionStatus = 'SUCCESS' | 'PARTIAL' | 'FAILED' | 'WAITING' | 'INTERRUPTED';

export interface QueueStartedEvent {
  event: 'queue_started';
  /** The instructions in the order they run (malformed ones are not in it). */
  instructions: string[];
  parallel: number;
}

export interface InstructionStartedEvent {
  event: 'instruction_started';
  instruction: string;
  priority: number;
  /** Where its run works: the repo, or its own worktree. */
  cwd: string;
  branch: string | null;
  /** It goes on with its run that waited or was interrupted. */
  resumed: boolean;
}

export interface InstructionFinishedEvent {
  event: 'instruction_finished';
  instruction: string;
  status: InstructionStatus;
  /** Why, in a line. */
  reason: string;
  /** `.agent-collab/reports/<name>.md` */
  report: string;
  /** Where the instruction file went (inbox/done/… or inbox/failed/…); null: it stays in the inbox. */
  moved_to: string | null;
  exit_code: number;
}

export interface QueueDoneEvent {
  event: 'queue_done';
  counts: Record<InstructionStatus, number>;
  /** Instructions not started (the queue stopped before them). */
  not_started: string[];
  exit_code: number;
}

export type TaggedRunEvent = RunEvent & { instruction: string };

export type QueueEvent =
  QueueStartedEvent | InstructionStartedEvent | InstructionFinishedEvent | QueueDoneEvent | TaggedRunEvent;
