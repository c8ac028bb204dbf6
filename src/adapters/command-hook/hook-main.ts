// The PreToolUse hook program both CLIs run before each shell command (argv: <socket> <role> <token> <deadline-ms>).
// It asks agent-collab over a unix socket and prints the CLI's allow/deny answer. It FAILS CLOSED: anything that
// goes wrong (bad argv or stdin, agent-collab unreachable, no answer before the deadline, a crash) prints a deny.
// Both CLIs treat a hook that times out, crashes or exits non-zero as "allow", so this program must never do so.
// Imports node built-ins only: it starts once per command.
import net from 'node:net';
import { hookOutput, parseHookArgv, REASON_PREFIX, SHELL_TOOL_NAMES, type HookRequest, type HookResponse } from './protocol.js';

let finished = false;

function finish(output: string): void {
  if (finished) return;
  finished = true;
  process.stdout.write(output === '' ? '' : `${output}\n`, () => process.exit(0));
  setTimeout(() => process.exit(0), 2_000).unref();
}

function deny(why: string): void {
  finish(hookOutput('deny', why.startsWith('agent-collab') ? why : `${REASON_PREFIX}${why}`));
}

interface ToolCall {
  tool: string;
  command: string | null;
  cwd: string;
  toolUseId: string | null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The tool call from the hook's stdin JSON, or why it cannot be read. */
function readToolCall(text: string): ToolCall | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'the command hook got input that is not JSON';
  }
  if (!isObject(json) || typeof json.tool_name !== 'string') return 'the command hook got input without a tool_name';
  const input = isObject(json.tool_input) ? json.tool_input : {};
  return {
    tool: json.tool_name,
    command: typeof input.command === 'string' ? input.command : null,
    cwd: typeof json.cwd === 'string' ? json.cwd : process.cwd(),
    toolUseId: typeof json.tool_use_id === 'string' ? json.tool_use_id : null,
  };
}

function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (d: string) => (text += d));
    process.stdin.on('end', () => resolve(text));
    process.stdin.on('error', reject);
  });
}

function parseResponse(line: string): HookResponse | null {
  try {
    const r: unknown = JSON.parse(line);
    if (!isObject(r)) return null;
    if (r.allow === true) return { allow: true };
    if (r.allow === false && typeof r.reason === 'string') return { allow: false, reason: r.reason };
  } catch {
    // not JSON
  }
  return null;
}

/** Sends the request and settles with agent-collab's answer; every failure becomes a deny reason. */
function ask(socketPath: string, request: HookRequest): Promise<HookResponse> {
  return new Promise((resolve) => {
    let buffer = '';
    let settled = false;
    const settle = (r: HookResponse): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(r);
    };
    const socket = net.createConnection(socketPath);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (d: string) => {
      buffer += d;
      const nl = buffer.indexOf('\n');
      if (nl < 0) return;
      const response = parseResponse(buffer.slice(0, nl));
      settle(response ?? { allow: false, reason: 'agent-collab answered the command hook with something it cannot read, so the command was denied' });
    });
    socket.on('error', (err: NodeJS.ErrnoException) =>
      settle({ allow: false, reason: `cannot reach agent-collab to check the command (${err.code ?? err.message}), so it was denied` }),
    );
    socket.on('close', () => settle({ allow: false, reason: 'agent-collab closed the command check without an answer, so the command was denied' }));
  });
}

async function main(): Promise<void> {
  const args = parseHookArgv(process.argv.slice(2));
  if (!args) {
    return deny('the command hook was started without its socket, role, token and deadline, so the command was denied');
  }
  // Not unref'd: it keeps a stuck hook alive until it denies; finish() exits the process.
  setTimeout(() => deny(`agent-collab did not answer within ${Math.round(args.deadlineMs / 1000)} s, so the command was denied`), args.deadlineMs);
  const call = readToolCall(await readStdin());
  if (typeof call === 'string') return deny(`${call}, so the command was denied`);
  // Not a shell command: no opinion (empty output), the CLI's own permissions decide. An "allow" here would make
  // claude skip its own checks for that tool.
  if (!SHELL_TOOL_NAMES.includes(call.tool)) return finish('');
  if (call.command === null) return deny(`the ${call.tool} call has no command string, so it was denied`);
  const response = await ask(args.socketPath, {
    token: args.token,
    role: args.role,
    command: call.command,
    cwd: call.cwd,
    tool: call.tool,
    toolUseId: call.toolUseId,
  });
  if (response.allow) finish(hookOutput('allow', `${REASON_PREFIX}allowed by the command policy`));
  else deny(response.reason);
}

process.on('uncaughtException', (err) => deny(`the command hook failed (${err.message}), so the command was denied`));
process.on('unhandledRejection', (err) => deny(`the command hook failed (${String(err)}), so the command was denied`));
void main();
