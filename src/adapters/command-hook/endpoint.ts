// What an adapter needs to make its CLI ask agent-collab before every shell command.
import type { Role } from '../../engine/types.js';
import type { CommandApprovals } from './approvals.js';

export interface HookEndpoint {
  role: Role;
  /** The command line the CLI runs as its PreToolUse hook (already shell-quoted). */
  command: string;
  /** The CLI's own limit for the hook, in seconds; the hook denies by itself before it. */
  timeoutSeconds: number;
  /** Commands the hook got approved for this role. */
  approvals: CommandApprovals;
}

/** How far the hook's own deadline lies past [safety] confirm_timeout_seconds, and the CLI's limit past that. */
export const HOOK_DEADLINE_MARGIN_SECONDS = 15;
export const CLI_TIMEOUT_MARGIN_SECONDS = 15;

export function hookDeadlineMs(confirmTimeoutSeconds: number): number {
  return (confirmTimeoutSeconds + HOOK_DEADLINE_MARGIN_SECONDS) * 1000;
}

export function cliHookTimeoutSeconds(confirmTimeoutSeconds: number): number {
  return confirmTimeoutSeconds + HOOK_DEADLINE_MARGIN_SECONDS + CLI_TIMEOUT_MARGIN_SECONDS;
}
