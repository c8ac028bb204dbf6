// The clock the minutes budget reads: wall time minus the time the run waited on the person while a round was under
// way (a held command). An agent blocked on the person's answer is not working, and a person who decides after
// lunch must not find the run stopped by its minutes cap.
export class WorkClock {
  private waitedMs = 0;
  private waitingSince: number | null = null;
  private waits = 0;

  constructor(private readonly wallNow: () => number = () => Date.now()) {}

  /** Milliseconds of working time since an arbitrary origin: only differences between readings mean anything. */
  now(): number {
    const open = this.waitingSince === null ? 0 : this.wallNow() - this.waitingSince;
    return this.wallNow() - this.waitedMs - open;
  }

  /** The run waits on the person until the returned function is called (waits may overlap; the clock stops once). */
  waitOnPerson(): () => void {
    if (this.waits++ === 0) this.waitingSince = this.wallNow();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.waits === 0 && this.waitingSince !== null) {
        this.waitedMs += this.wallNow() - this.waitingSince;
        this.waitingSince = null;
      }
    };
  }
}
