// What the hook program and agent-collab's hook server say to each other, and what the hook prints for the CLI.
// Imported by the hook program: node built-ins only, nothing heavy.

/** Tool names that run a shell command (codex reports its `exec_command` as "Bash"). Other tools are not ours to check. */
export const SHELL_TOOL_NAMES: readonly string[] = ['Bash', 'exec_command', 'shell', 'local_shell'];

/** One line of JSON from the hook to the server. */
export interface HookRequest {
  token: string;
  role: string;
  command: string;
  cwd: string;
  tool: string;
  toolUseId: string | null;
}

/** One line of JSON from the server to the hook. */
export type HookResponse = { allow: true } | { allow: false; reason: string };

/** Longest request line the server reads (a command is at most a few hundred KB in practice). */
export const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

/** Every denial reason starts so, so the model and the person see who denied. */
export const REASON_PREFIX = 'agent-collab: ';

/**
 * The one output shape both CLIs accept from a PreToolUse hook (codex treats any other field as a failed hook).
 * Printed on stdout, exit code 0.
 */
export function hookOutput(decision: 'allow' | 'deny', reason: string): string {
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: reason },
  });
}

/** argv of the hook program after the script: `<socket> <role> <token> <deadline-ms>`. */
export interface HookArgs {
  socketPath: string;
  role: string;
  token: string;
  deadlineMs: number;
}

export function hookArgv(args: HookArgs): string[] {
  return [args.socketPath, args.role, args.token, String(args.deadlineMs)];
}

/** Parses the hook program's argv; null when it is not what agent-collab writes. */
export function parseHookArgv(argv: readonly string[]): HookArgs | null {
  const [socketPath, role, token, deadline] = argv;
  const deadlineMs = Number(deadline);
  if (!socketPath || !role || !token || !Number.isInteger(deadlineMs) || deadlineMs <= 0) return null;
  return { socketPath, role, token, deadlineMs };
}
