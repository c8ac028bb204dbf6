// What the engine needs to judge a command before it runs, and the commands waiting for the person's answer.
import type { CommandVerdict } from '../core/ports.js';

export interface PolicyVerdict {
  decision: 'allow' | 'confirm' | 'block';
  /** The `[safety]` entry (or built-in rule) that matched. */
  rule: string | null;
  reason: string;
}

/** The `[safety]` policy in effect and how a held command can be decided. */
export interface CommandPolicy {
  /** Resolves once `evaluate` can run (the shell parser is loaded); rejects with what to do when it cannot load. */
  ready(): Promise<void>;
  evaluate(command: string): PolicyVerdict;
  /** True when every part of `command` that needs confirmation starts with one of `prefixes`. */
  allowedByPrefix(command: string, prefixes: readonly string[]): boolean;
  /** A person is there to ask (the TUI). Headless: blocked is denied, confirm is denied unless `allowPrefixes` allow it. */
  interactive: boolean;
  /** `--allow-cmd <prefix>` (headless). */
  allowPrefixes: readonly string[];
  /** A held command nobody answers within this time is denied. */
  confirmTimeoutMs: number;
}

export const DENY_ADVICE = 'do not try variants of this command; continue without it, or stop and explain what you need';

/** Held commands: each waits for the person's answer, a timeout, or the run stopping — whichever comes first. */
export class CommandHolds {
  private readonly waiting = new Map<string, { resolve: (v: CommandVerdict) => void; timer: NodeJS.Timeout }>();
  /** One held command at a time: the next waits until the one before is decided. */
  private chain: Promise<unknown> = Promise.resolve();

  /** Runs `hold` after the commands held before it are decided. */
  serialize<T>(hold: () => Promise<T>): Promise<T> {
    const run = this.chain.then(hold, hold);
    this.chain = run.catch(() => undefined);
    return run;
  }

  wait(id: string, timeoutMs: number, onTimeout: () => void): Promise<CommandVerdict> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (!this.waiting.delete(id)) return;
        onTimeout();
        resolve({ allow: false, reason: `nobody answered within ${Math.round(timeoutMs / 1000)} s, so it was denied; ${DENY_ADVICE}` });
      }, timeoutMs);
      timer.unref?.();
      this.waiting.set(id, { resolve, timer });
    });
  }

  answer(id: string, verdict: CommandVerdict): void {
    const w = this.waiting.get(id);
    if (!w) return;
    this.waiting.delete(id);
    clearTimeout(w.timer);
    w.resolve(verdict);
  }

  denyAll(reason: string): void {
    for (const id of [...this.waiting.keys()]) this.answer(id, { allow: false, reason });
  }
}
