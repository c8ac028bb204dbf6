// What an adapter needs to make its CLI ask agent-collab before every shell command.
import type { Role } from '../../core/types.js';
import type { CommandApprovals } from './approvals.js';

/** How a CLI runs the hook: put `command` in its hook settings, add `env` to its environment. */
export interface HookLaunch {
  /** The command line the CLI runs as its PreToolUse hook (already shell-quoted). */
  command: string;
  /** Variables the CLI's environment must carry for the hook (the session token and reply key); the CLIs pass theirs on to it. */
  env: Record<string, string>;
  /** The CLI's own limit for the hook, in seconds; the hook denies by itself before it. */
  timeoutSeconds: number;
}

export interface HookEndpoint {
  role: Role;
  /** The CLI's own limit for the hook, in seconds. */
  timeoutSeconds: number;
  /** Commands the hook got approved for this role. */
  approvals: CommandApprovals;
  /** The hook command line and environment; an adapter fails the round before starting its CLI when this rejects. */
  launch(): Promise<HookLaunch>;
}

/** How far the hook's own deadline lies past [safety] confirm_timeout_seconds, and the CLI's limit past that. */
export const HOOK_DEADLINE_MARGIN_SECONDS = 15;
export const CLI_TIMEOUT_MARGIN_SECONDS = 15;

export function hookDeadlineSeconds(confirmTimeoutSeconds: number): number {
  return confirmTimeoutSeconds + HOOK_DEADLINE_MARGIN_SECONDS;
}

export function cliHookTimeoutSeconds(confirmTimeoutSeconds: number): number {
  return confirmTimeoutSeconds + HOOK_DEADLINE_MARGIN_SECONDS + CLI_TIMEOUT_MARGIN_SECONDS;
}
