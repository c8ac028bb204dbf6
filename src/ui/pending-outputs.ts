// What the engine published since the last frame, folded as it arrives. An agent event that only adds an entry
// becomes that entry at once (the event itself is not kept), and a run of such entries never holds more than
// twice maxEntries: a fast stream between two frames costs what the conversation keeps, not what was streamed.
// Reducing what `take()` returns gives the same view as reducing every output one at a time.
import { appendedEntry, type NewEntry, type ViewAction } from './view-model.js';

interface Run {
  type: 'entries';
  entries: NewEntry[];
  skipped: number;
}

export class PendingOutputs {
  private actions: Array<ViewAction | Run> = [];
  private run: Run | null = null;
  /** Outputs pushed since the last take(). */
  count = 0;

  constructor(private readonly maxEntries: number) {}

  get empty(): boolean {
    return this.actions.length === 0;
  }

  push(out: ViewAction): void {
    this.count++;
    const entry = out.type === 'agent_event' ? appendedEntry(out.role, out.event) : undefined;
    if (entry === null) return; // adds nothing (session, usage, done, blank text)
    if (entry === undefined) {
      this.run = null;
      this.actions.push(out);
      return;
    }
    if (!this.run) {
      this.run = { type: 'entries', entries: [], skipped: 0 };
      this.actions.push(this.run);
    }
    const run = this.run;
    run.entries.push(entry);
    if (run.entries.length >= 2 * this.maxEntries) {
      // Only the newest maxEntries of a run can stay in the conversation: let the others go now.
      const extra = run.entries.length - this.maxEntries;
      run.entries = run.entries.slice(extra);
      run.skipped += extra;
    }
  }

  /** Everything pending, in order; the queue is empty afterwards. */
  take(): ViewAction[] {
    const out = this.actions;
    this.actions = [];
    this.run = null;
    this.count = 0;
    return out;
  }
}
