// The one timer of a run parked at a usage limit (core/usage-limit.ts): armed for the wake-up time the state holds,
// so a resumed run waits only the rest of it (or goes on at once when it has passed), and cleared as soon as the run
// waits for something else or the engine closes, so nothing keeps the process alive after a stop or Ctrl+C.
import { remainingMs } from '../core/usage-limit.js';
import type { WorkflowState } from '../core/types.js';

/** setTimeout takes at most 2^31 - 1 ms (about 24.8 days); a longer wait is armed again in pieces. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class ResetTimer {
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** The wake-up time the timer is armed for. */
  private armedFor: string | null = null;

  constructor(
    private readonly now: () => Date,
    private readonly wake: (until: string) => void,
  ) {}

  /** Arms the timer for the state's wake-up time, or clears it when the run does not wait for a reset. */
  sync(s: WorkflowState): void {
    const until = s.awaiting?.kind === 'usage_limit' ? s.awaiting.until : null;
    if (until === this.armedFor) return;
    this.clear();
    if (until !== null) this.arm(until);
  }

  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.armedFor = null;
  }

  private arm(until: string): void {
    this.armedFor = until;
    const ms = remainingMs(until, this.now());
    this.timer = setTimeout(
      () => {
        this.timer = null;
        if (remainingMs(until, this.now()) > 0) return this.arm(until);
        // `armedFor` stays: the state waits for this time until the wake-up is applied, and is not woken twice.
        this.wake(until);
      },
      Math.min(ms, MAX_TIMER_MS),
    );
  }
}
