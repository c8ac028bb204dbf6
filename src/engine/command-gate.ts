// The gate every command passes before it runs: the agents' (through their CLI's PreToolUse hook) and
// agent-collab's own (the test command, the step commit, the rollback). The [safety] policy decides; blocked and
// confirm-required commands go to the person (held until answered) or, in a headless run, to `--allow-cmd`.
import { randomUUID } from 'node:crypto';
import type { CommandCheck, CommandVerdict } from '../core/ports.js';
import { errorMessage, type EngineContext } from './context.js';
import type { RunRecords } from './run-records.js';

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
  /** `own`: agent-collab's own commit or rollback (see CommandCheck.own). */
  evaluate(command: string, options?: { own?: boolean }): PolicyVerdict;
  /** True when every part of `command` that needs confirmation starts with one of `prefixes`. */
  allowedByPrefix(command: string, prefixes: readonly string[]): boolean;
  /** A person is there to ask (the TUI). Headless: blocked is denied, confirm is denied unless `allowPrefixes` allow it. */
  interactive: boolean;
  /** `--allow-cmd <prefix>` (headless). */
  allowPrefixes: readonly string[];
  /** A held command nobody answers within this time is denied. */
  confirmTimeoutMs: number;
}

const DENY_ADVICE = 'do not try variants of this command; continue without it, or stop and explain what you need';

/** Held commands: each waits for the person's answer, a timeout, or the run stopping — whichever comes first. */
class CommandHolds {
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
        resolve({
          allow: false,
          reason: `nobody answered within ${Math.round(timeoutMs / 1000)} s, so it was denied; ${DENY_ADVICE}`,
        });
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

export class EngineCommandGate {
  private readonly holds = new CommandHolds();

  constructor(
    private readonly ctx: EngineContext,
    private readonly records: RunRecords,
  ) {}

  /** The person's answer to a held command (`answer_command`). */
  answer(id: string, verdict: CommandVerdict): void {
    this.holds.answer(id, verdict);
  }

  /** Every held command is denied (the round was stopped, or agent-collab is closing). */
  denyAll(reason: string): void {
    this.holds.denyAll(reason);
  }

  /** Never throws; anything unexpected denies. */
  async check(check: CommandCheck): Promise<CommandVerdict> {
    try {
      return await this.judge(check);
    } catch (err) {
      this.ctx.deps.files.debug('engine', `command check failed: ${errorMessage(err)}`);
      return {
        allow: false,
        reason: `agent-collab could not check the command (${errorMessage(err)}), so it was denied`,
      };
    }
  }

  private async judge(check: CommandCheck): Promise<CommandVerdict> {
    const policy = this.ctx.deps.commands;
    if (!policy) return { allow: false, reason: 'no command policy is loaded, so agent-collab denies every command' };
    await policy.ready();
    const v = policy.evaluate(check.command, { own: check.own === true });
    this.ctx.deps.files.debug(
      'policy',
      `${check.role}: ${v.decision} ${JSON.stringify(check.command)}${v.rule ? ` (rule "${v.rule}")` : ''}`,
    );
    if (v.decision === 'allow') return { allow: true };
    const notice = (decision: 'allow' | 'deny', reason: string): void =>
      this.ctx.emit({
        type: 'notice',
        notice: { kind: 'command', role: check.role, command: check.command, decision, rule: v.rule, reason },
      });
    const allowed = this.ctx.state().allowedCommands;
    if (
      v.decision === 'confirm' &&
      (allowed.includes(check.command) || policy.allowedByPrefix(check.command, [...allowed, ...policy.allowPrefixes]))
    ) {
      notice('allow', 'allowed earlier in this run');
      return { allow: true };
    }
    const rule = v.rule ?? 'policy';
    if (!policy.interactive) {
      const reason =
        v.decision === 'block'
          ? `${v.reason}; ${DENY_ADVICE}`
          : `needs the person's confirmation (rule "${rule}") and nobody can confirm in this headless run (the person can allow it with --allow-cmd); ${DENY_ADVICE}`;
      notice('deny', reason);
      this.records.timeline(`denied ${check.role}'s command \`${check.command}\` (rule "${rule}")`);
      await this.ctx.dispatch({ type: 'command_denied', id: null, command: check.command, reason });
      return { allow: false, reason };
    }
    return this.holds.serialize(async () => {
      const id = randomUUID();
      const pending = {
        id,
        role: check.role,
        command: check.command,
        decision: v.decision as 'block' | 'confirm',
        rule,
        reason: v.reason,
      };
      // The wait (and its timeout) starts before the hold is shown, so an answer or a clock that moves right after
      // the hold appears is never missed.
      const answered = this.holds.wait(id, policy.confirmTimeoutMs, () => {
        void this.ctx.dispatch({
          type: 'command_denied',
          id,
          command: check.command,
          reason: 'nobody answered in time',
        });
      });
      const held = await this.ctx.dispatch({ type: 'command_held', command: pending });
      if (!held) {
        const reason = 'the run is no longer at a point where a command can run';
        this.holds.answer(id, { allow: false, reason });
        await answered;
        return { allow: false, reason };
      }
      this.records.timeline(`held ${check.role}'s command \`${check.command}\` for the person (rule "${rule}")`);
      const working = this.ctx.workClock.waitOnPerson();
      const verdict = await answered.finally(working);
      notice(verdict.allow ? 'allow' : 'deny', verdict.allow ? 'the person allowed it' : verdict.reason);
      this.records.timeline(`${verdict.allow ? 'allowed' : 'denied'} \`${check.command}\``);
      return verdict;
    });
  }
}
