// What the hook clients (command-hook.sh, hook-main.ts) and agent-collab's hook server say to each other, and what
// a hook prints for the CLI. Imported by the node client: node built-ins only, nothing heavy.
//
// Wire (loopback TCP, one request per connection):
//   client → server  `AC-HOOK 1 <token> <role> <n>\n` then exactly <n> bytes: the CLI's stdin JSON, untouched
//   server → client  one line `<replyKey>:<payload>`, payload being exactly what the hook prints (the hookOutput
//                    JSON, or nothing for "no opinion"). The reply key is a second per-session secret the client
//                    never sends, so only agent-collab itself can answer: not a program that took the port after
//                    agent-collab died (it learns the token from the request, never the key). Answers to requests
//                    without the session's token carry no key (they would hand it to whoever asks).

/** Tool names that run a shell command (codex reports its `exec_command` as "Bash"). Other tools are not ours to check. */
export const SHELL_TOOL_NAMES: readonly string[] = ['Bash', 'exec_command', 'shell', 'local_shell'];

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

/** Tokens and roles are single words; the bash client refuses anything else before connecting. */
const WORD = /^[0-9A-Za-z_-]+$/;
const ROLE = /^[a-z]+$/;
/** A reply key: 32 random bytes as lowercase hex. */
const REPLY_KEY = /^[0-9a-f]{64}$/;

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

/** Whether a server's answer line is something a hook may print as is (a hook output or "no opinion"). */
export function isPrintableAnswer(line: string): boolean {
  return line === '' || line.startsWith('{"hookSpecificOutput":');
}

/** Whether `key` is a reply key a hook may trust (the shape the server makes, and not the token the hook sends). */
export function isReplyKey(key: string, token: string): boolean {
  return REPLY_KEY.test(key) && key !== token;
}

/** The answer line (without its newline) the server writes: the payload after the reply key. */
export function keyedAnswer(replyKey: string, payload: string): string {
  return `${replyKey}:${payload}`;
}

/** The payload of an answer line that starts with `<replyKey>:`; null when it does not (someone else answered). */
export function answerPayload(line: string, replyKey: string): string | null {
  const prefix = `${replyKey}:`;
  return line.startsWith(prefix) ? line.slice(prefix.length) : null;
}

export interface WireHeader {
  token: string;
  role: string;
  length: number;
}

export function wireHeader(h: WireHeader): string {
  return `AC-HOOK 1 ${h.token} ${h.role} ${h.length}\n`;
}

/** The header line (without its newline); null when it is not one. */
export function parseWireHeader(line: string): WireHeader | null {
  const m = /^AC-HOOK 1 (\S+) (\S+) (\d{1,12})$/.exec(line);
  if (!m || !WORD.test(m[1]!) || !ROLE.test(m[2]!)) return null;
  return { token: m[1]!, role: m[2]!, length: Number(m[3]) };
}

/** argv of the node client after the script: `<port> <role> <deadline-ms>`. */
export interface NodeClientArgs {
  port: number;
  role: string;
  deadlineMs: number;
}

export function nodeClientArgv(args: NodeClientArgs): string[] {
  return [String(args.port), args.role, String(args.deadlineMs)];
}

/** Parses the node client's argv; null when it is not what agent-collab writes. */
export function parseNodeClientArgv(argv: readonly string[]): NodeClientArgs | null {
  if (argv.length !== 3) return null;
  const [port, role, deadline] = argv.map(String) as [string, string, string];
  if (!/^\d{1,5}$/.test(port) || !/^\d{1,10}$/.test(deadline) || !ROLE.test(role)) return null;
  const args = { port: Number(port), role, deadlineMs: Number(deadline) };
  return args.port > 0 && args.port < 65_536 && args.deadlineMs > 0 ? args : null;
}

/** argv of the bash client after the script: `<port> <role> <deadline-seconds>`. */
export function bashClientArgv(args: { port: number; role: string; deadlineSeconds: number }): string[] {
  return [String(args.port), args.role, String(args.deadlineSeconds)];
}

/** Whether `token` can travel in the header (the server's tokens always can). */
export function isWireWord(token: string): boolean {
  return WORD.test(token);
}
