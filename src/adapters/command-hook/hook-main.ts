// The node hook client, used only where the bash client cannot work (no /bin/bash, or a bash without /dev/tcp).
// argv: <port> <role> <deadline-ms>; the session token in AGENT_COLLAB_HOOK_TOKEN, the reply key in
// AGENT_COLLAB_HOOK_REPLY_KEY. Same wire as command-hook.sh (protocol.ts): sends the CLI's stdin as is, prints
// agent-collab's one-line answer once it proved to start with the reply key (which this client never sends). It
// FAILS CLOSED: anything that goes wrong (bad argv, no token or key, agent-collab unreachable, an answer from someone
// else, no answer before the deadline, a signal, a crash) prints a deny and exits 0, because both CLIs treat a hook
// that fails as "allow".
// Imports node built-ins only: it starts once per command.
import net from 'node:net';
import {
  answerPayload,
  denyOutput,
  HOOK_REPLY_KEY_ENV,
  HOOK_TOKEN_ENV,
  isPrintableAnswer,
  isReplyKey,
  isWireWord,
  parseNodeClientArgv,
  wireHeader,
} from './protocol.js';

let finished = false;

function finish(output: string): void {
  if (finished) return;
  finished = true;
  process.stdout.write(output === '' ? '' : `${output}\n`, () => process.exit(0));
  setTimeout(() => process.exit(0), 2_000).unref();
}

function deny(why: string): void {
  finish(denyOutput(`${why}, so the command was denied`));
}

function readStdin(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    process.stdin.on('data', (d: Buffer) => chunks.push(d));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks)));
    process.stdin.on('error', reject);
  });
}

/** Sends header + payload and settles with the line to print, or why there is none. */
function ask(port: number, header: string, payload: Buffer): Promise<{ line: string } | { why: string }> {
  return new Promise((resolve) => {
    let buffer = '';
    let settled = false;
    const settle = (r: { line: string } | { why: string }): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(r);
    };
    const socket = net.createConnection({ host: '127.0.0.1', port });
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(Buffer.concat([Buffer.from(header), payload])));
    socket.on('data', (d: string) => {
      buffer += d;
      const nl = buffer.indexOf('\n');
      if (nl >= 0) settle({ line: buffer.slice(0, nl) });
    });
    socket.on('error', (err: NodeJS.ErrnoException) => settle({ why: `cannot reach agent-collab to check the command (${err.code ?? err.message})` }));
    socket.on('close', () => settle({ why: 'the command check ended without an answer' }));
  });
}

async function main(): Promise<void> {
  const args = parseNodeClientArgv(process.argv.slice(2));
  if (!args) return deny('the command hook was started without its port, role and deadline');
  const token = process.env[HOOK_TOKEN_ENV] ?? '';
  if (!isWireWord(token)) return deny(`the command hook found no session token in ${HOOK_TOKEN_ENV}`);
  const replyKey = process.env[HOOK_REPLY_KEY_ENV] ?? '';
  if (!isReplyKey(replyKey, token)) return deny(`the command hook found no valid reply key in ${HOOK_REPLY_KEY_ENV}`);
  // Not unref'd: it keeps a stuck hook alive until it denies; finish() exits the process.
  setTimeout(() => deny(`the command check got no answer within ${Math.round(args.deadlineMs / 1000)} s`), args.deadlineMs);
  const payload = await readStdin();
  const answer = await ask(args.port, wireHeader({ token, role: args.role, length: payload.length }), payload);
  if ('why' in answer) return deny(answer.why);
  const printable = answerPayload(answer.line, replyKey);
  if (printable === null) return deny(`the answer on port ${args.port} did not come from this agent-collab session`);
  if (!isPrintableAnswer(printable)) return deny('the command hook could not read the answer it got');
  finish(printable);
}

for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) {
  process.on(signal, () => deny('the command hook was stopped before agent-collab answered'));
}
process.on('uncaughtException', (err) => deny(`the command hook failed (${err.message})`));
process.on('unhandledRejection', (err) => deny(`the command hook failed (${String(err)})`));
void main();
