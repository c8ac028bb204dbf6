// A round's agent time for the budgets (core/budget.ts): reported while the round streams — at the minutes
// budget's next mark (80%, the cap), and at least once a minute so the status bar's spent / cap moves — and the rest
// when the round ends. Whether a report stops the round is the core's call (core/budget-guard.ts).
import { msToNextMinutesMark, RoundClock } from '../core/budget.js';
import type { Role } from '../core/types.js';
import type { EngineContext } from './context.js';

/** The longest a streaming round goes without reporting its agent time (with a minutes cap). */
export const REPORT_EVERY_MS = 60_000;

export class RoundBudgetClock {
  private readonly clock: RoundClock;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private ended = false;

  constructor(
    private readonly ctx: EngineContext,
    private readonly signal: AbortSignal,
    /** Whose round it is: the run report shows each role's agent time. */
    private readonly role?: Role,
  ) {
    this.clock = new RoundClock(() => ctx.workClock.now());
    this.arm();
  }

  /** Stops reporting (what is left of the round's time is counted by end() or stopped()). */
  stop(): void {
    this.ended = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The round has its outcome: the rest of its time is counted (a cap reached here stops the next round). */
  async end(): Promise<void> {
    this.stop();
    if (!this.signal.aborted)
      await this.ctx.dispatch({ type: 'worked', ms: this.clock.lap(), roundEnded: true, role: this.role });
  }

  /**
   * The round was stopped (Esc, `s`, a cap, a shutdown): the agent worked until then all the same, so that time
   * counts; with `roundEnded` it stops nothing more.
   */
  async stopped(): Promise<void> {
    this.stop();
    await this.ctx.dispatch({ type: 'worked', ms: this.clock.lap(), roundEnded: true, role: this.role });
  }

  private arm(): void {
    const caps = this.ctx.deps.options.budget;
    if (this.ended || this.signal.aborted || !caps || caps.minutes <= 0) return;
    const toMark = msToNextMinutesMark(this.ctx.state(), caps, this.clock.pending());
    this.timer = setTimeout(() => void this.report(), Math.min(toMark ?? REPORT_EVERY_MS, REPORT_EVERY_MS));
  }

  private async report(): Promise<void> {
    this.timer = null;
    if (this.ended || this.signal.aborted) return;
    await this.ctx.dispatch({ type: 'worked', ms: this.clock.lap(), role: this.role });
    this.arm();
  }
}
