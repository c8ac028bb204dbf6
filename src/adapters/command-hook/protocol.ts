// What the hook client (command-hook.sh) and agent-collab's hook server say to each other, and what a hook prints
// for the CLI.
//
// Wire (loopback TCP, one request per connection):
//   client → server  `AC-HOOK 1 <token> <role> <n>\n` then exactly <n> bytes: the CLI's stdin JSON, untouched
//   server → client  one line `<replyKey>:<payload>`, payload being exactly what the hook prints (the hookOutput
//                    JSON, or nothing for "no opinion"). The reply key is a second per-session secret the client
//                    never sends, so only agent-collab itself can answer: not a program that took the port after
//                    agent-collab died (it learns the token from the request, never the key). Answers to requests
//                    without the session's token carry no key (they would hand it to whoever asks).

/**
 * Tool names that run a shell command (codex reports its `exec_command` as "Bash"; gemini's is `run_shell_command`).
 * Other tools are not ours to check.
 */
export const SHELL_TOOL_NAMES: readonly string[] = [
  'Bash',
  'exec_command',
  'shell',
  'local_shell',
  'run_shell_command',
];

/** The variable that carries the session's token to the hook (argv is visible to other users through `ps`). */
export const HOOK_TOKEN_ENV = 'AGENT_COLLAB_HOOK_TOKEN';

/** The variable that carries the session's reply key to the hook: every answer starts with it; the hook never sends it. */
export const HOOK_REPLY_KEY_ENV = 'AGENT_COLLAB_HOOK_REPLY_KEY';

/** Largest payload the server reads (a command is at most a few hundred KB in practice). */
export const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

/** Longest header line the server reads. */
export const MAX_HEADER_BYTES = 512;

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

/** The deny output for `why`, prefixed so the model sees agent-collab denied it. */
export function denyOutput(why: string): string {
  return hookOutput('deny', why.startsWith(REASON_PREFIX) ? why : `${REASON_PREFIX}${why}`);
}

/** The answer line (without its newline) the server writes: the payload after the reply key. */
export function keyedAnswer(replyKey: string, payload: string): string {
  return `${replyKey}:${payload}`;
}

export interface WireHeader {
  token: string;
  role: string;
  length: number;
}

/** Tokens and roles are single words; the client refuses anything else before connecting. */
const WORD = /^[0-9A-Za-z_-]+$/;
const ROLE = /^[a-z]+$/;

/** The header line (without its newline); null when it is not one. */
export function parseWireHeader(line: string): WireHeader | null {
  const m = /^AC-HOOK 1 (\S+) (\S+) (\d{1,12})$/.exec(line);
  if (!m || !WORD.test(m[1]!) || !ROLE.test(m[2]!)) return null;
  return { token: m[1]!, role: m[2]!, length: Number(m[3]) };
}

/** argv of the bash client after the script: `<port> <role> <deadline-seconds>`. */
export function bashClientArgv(args: { port: number; role: string; deadlineSeconds: number }): string[] {
  return [String(args.port), args.role, String(args.deadlineSeconds)];
}
