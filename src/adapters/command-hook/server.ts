// agent-collab's side of the command hook: a loopback TCP port (127.0.0.1, chosen by the OS) where the hook client
// sends the CLI's tool call before each shell command. Each request carries the per-session token (the client has
// it from its environment) and a known role; the answer comes from the gate (the engine's policy, which may hold
// the command for the person) and is sent back as the exact line the hook prints, after the session's reply key
// (the second secret in the hook's environment, which the hook never sends: it proves the answer came from here).
// Requests without the token get their deny without the key, so nobody learns the key by asking. Every check is
// recorded, and approvals are kept per role so adapters can notice a command that ran without the hook having
// approved it.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import type { CommandGate, CommandVerdict } from '../../core/ports.js';
import { UserError } from '../../core/errors.js';
import type { Role } from '../../core/types.js';
import type { DebugSink } from '../process-runner.js';
import { CommandApprovals } from './approvals.js';
import { cliHookTimeoutSeconds, hookDeadlineSeconds, type HookEndpoint } from './endpoint.js';
import { bashClientLine, PROBE_ANSWER, PROBE_ROLE, probeBashClient, readBashClient } from './bash-client.js';
import {
  denyOutput,
  hookOutput,
  HOOK_REPLY_KEY_ENV,
  HOOK_TOKEN_ENV,
  keyedAnswer,
  MAX_HEADER_BYTES,
  MAX_REQUEST_BYTES,
  parseWireHeader,
  REASON_PREFIX,
  type WireHeader,
} from './protocol.js';
import { readToolCall } from './tool-call.js';

export interface CommandHookServerOptions {
  gate: CommandGate;
  /** [safety] confirm_timeout_seconds: the hook waits a bit longer than that, the CLI longer still. */
  confirmTimeoutSeconds: number;
  debug?: DebugSink;
  /** The bash the hook client runs under; default /bin/bash. */
  bash?: string;
}

export interface CheckedCommand {
  role: Role;
  command: string;
  cwd: string;
  tool: string;
  toolUseId: string | null;
  verdict: CommandVerdict;
}

export interface CommandHookServer {
  /** The loopback port the hooks connect to. */
  readonly port: number;
  /** The hook for one role's agent: the CLI's timeout, the role's approvals and the command line. */
  endpoint(role: Role): HookEndpoint;
  /** Every shell command a hook asked about (with a valid token), in the order answered. */
  readonly checkedCommands: readonly CheckedCommand[];
  /** Checks the gate has not answered yet. */
  readonly pendingChecks: number;
  /** Stops listening and drops open connections (their hooks deny). */
  close(): Promise<void>;
}

const ROLES: readonly Role[] = ['planner', 'reviewer'];
/** A client that has not sent its whole request by then is dropped (the client sends it at once). */
const REQUEST_TIMEOUT_MS = 30_000;

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A secret: 32 random bytes as hex. */
function newSecret(): string {
  return randomBytes(32).toString('hex');
}

/** A secret that differs from `other` (the reply key must never be the token the hook sends). */
function newSecretBut(other: string): string {
  let s = newSecret();
  while (s === other) s = newSecret();
  return s;
}

/** The token and reply key the startup probe uses instead of the session's. */
interface ProbeSecrets {
  token: string;
  replyKey: string;
}

/** One request as read: its header and payload, or why it cannot be answered (with the header, when there was one). */
type ReadRequest = { header: WireHeader; payload: Buffer } | { bad: string; header: WireHeader | null };

/** Reads one request (header line, then its payload) from a connection; calls `done` once with it. */
function readRequest(socket: net.Socket, done: (request: ReadRequest) => void): void {
  let buffer = Buffer.alloc(0);
  let header: WireHeader | null = null;
  let finished = false;
  const finish = (r: ReadRequest): void => {
    if (finished) return;
    finished = true;
    socket.setTimeout(0);
    socket.removeListener('data', onData);
    done(r);
  };
  const onData = (chunk: Buffer): void => {
    buffer = Buffer.concat([buffer, chunk]);
    if (header === null) {
      const nl = buffer.indexOf(0x0a);
      if (nl < 0) {
        if (buffer.length > MAX_HEADER_BYTES)
          finish({ bad: 'the command check request could not be read, so the command was denied', header: null });
        return;
      }
      header = parseWireHeader(buffer.subarray(0, nl).toString('utf8'));
      if (header === null)
        return finish({ bad: 'the command check request could not be read, so the command was denied', header: null });
      if (header.length > MAX_REQUEST_BYTES)
        return finish({
          bad: `the command is too long to check (over ${MAX_REQUEST_BYTES} bytes), so it was denied`,
          header,
        });
      buffer = buffer.subarray(nl + 1);
    }
    if (buffer.length >= header.length) finish({ header, payload: buffer.subarray(0, header.length) });
  };
  socket.on('data', onData);
  socket.setTimeout(REQUEST_TIMEOUT_MS, () => socket.destroy());
}

/**
 * Listens, then proves the hook client works here with one probe round trip; rejects with a UserError (and closes
 * again) when it does not, since a hook that cannot answer would deny every command or, without bash, allow them.
 */
export async function startCommandHookServer(opts: CommandHookServerOptions): Promise<CommandHookServer> {
  const token = newSecret();
  const replyKey = newSecretBut(token);
  const probeToken = newSecretBut(token);
  let probe: ProbeSecrets | null = { token: probeToken, replyKey: newSecretBut(probeToken) };
  const debug = opts.debug ?? (() => undefined);
  const approvals = new Map<Role, CommandApprovals>(ROLES.map((r) => [r, new CommandApprovals()]));
  const checked: CheckedCommand[] = [];
  const sockets = new Set<net.Socket>();
  let pending = 0;

  async function gateAnswer(role: Role, payload: Buffer): Promise<string> {
    const read = readToolCall(payload.toString('utf8'));
    // Not a shell command: no opinion (empty output), the CLI's own permissions decide. An "allow" here would make
    // claude skip its own checks for that tool.
    if (read.kind === 'not_shell') return '';
    if (read.kind === 'unreadable') return denyOutput(`${read.why}, so the command was denied`);
    const { command, tool, toolUseId } = read.call;
    const cwd = read.call.cwd ?? '';
    pending += 1;
    let verdict: CommandVerdict;
    try {
      verdict = await opts.gate({ role, command, cwd });
    } catch (err) {
      verdict = {
        allow: false,
        reason: `the command could not be checked (${(err as Error).message}), so it was denied`,
      };
    } finally {
      pending -= 1;
    }
    // Recorded before the hook hears the answer, so the approval exists before the command can run.
    if (verdict.allow) approvals.get(role)!.record(command);
    checked.push({ role, command, cwd, tool, toolUseId, verdict });
    debug(
      'command-hook',
      `${role}: ${verdict.allow ? 'allow' : 'deny'} ${JSON.stringify(command)}${verdict.allow ? '' : ` (${verdict.reason})`}`,
    );
    return verdict.allow
      ? hookOutput('allow', `${REASON_PREFIX}allowed by the command policy`)
      : denyOutput(verdict.reason);
  }

  /** The probe's request: the probe is running and `header` carries its token. */
  function isProbe(header: WireHeader | null): boolean {
    return header !== null && header.role === PROBE_ROLE && probe !== null && sameSecret(header.token, probe.token);
  }

  /** The key an answer to `header` is prefixed with: the session's (or the probe's) for a request with its token, else none. */
  function keyFor(header: WireHeader | null): string | null {
    if (isProbe(header)) return probe!.replyKey;
    return header !== null && sameSecret(header.token, token) ? replyKey : null;
  }

  /** The line the hook prints for this request. */
  function answer(header: WireHeader, payload: Buffer): Promise<string> {
    if (isProbe(header)) return Promise.resolve(PROBE_ANSWER);
    if (!sameSecret(header.token, token)) {
      debug('command-hook', `refused a request with a wrong token (role ${JSON.stringify(header.role)})`);
      return Promise.resolve(denyOutput("the hook did not present this session's token, so the command was denied"));
    }
    const role = ROLES.find((r) => r === header.role);
    if (!role)
      return Promise.resolve(
        denyOutput(`the hook named an unknown role ${JSON.stringify(header.role)}, so the command was denied`),
      );
    return gateAnswer(role, payload);
  }

  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined); // the hook went away (its own deadline): nothing to answer
    let requested = false;
    socket.on('end', () => {
      if (!requested) socket.end(); // the client gave up before sending a whole request
    });
    readRequest(socket, (request) => {
      requested = true;
      const line =
        'bad' in request ? Promise.resolve(denyOutput(request.bad)) : answer(request.header, request.payload);
      const key = keyFor(request.header);
      void line.then((l) => {
        if (!socket.destroyed) socket.end(`${key === null ? l : keyedAnswer(key, l)}\n`);
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as net.AddressInfo).port;

  let closed: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
    return closed;
  };

  const bash = opts.bash ?? '/bin/bash';
  let script: string;
  let failed: string | null;
  const t0 = performance.now();
  try {
    script = readBashClient();
    failed = await probeBashClient({ bash, script, port, probe });
  } catch (err) {
    await close();
    throw new UserError(`agent-collab's command hook cannot run: ${(err as Error).message}; reinstall agent-collab`);
  } finally {
    probe = null;
  }
  if (failed !== null) {
    await close();
    throw new UserError(
      `agent-collab's command hook cannot run: ${failed}; it needs ${bash} with /dev/tcp (install bash)`,
    );
  }
  debug(
    'command-hook',
    `hooks on 127.0.0.1:${port} use ${bash} (its probe took ${Math.round(performance.now() - t0)} ms)`,
  );
  const deadlineSeconds = hookDeadlineSeconds(opts.confirmTimeoutSeconds);
  const timeoutSeconds = cliHookTimeoutSeconds(opts.confirmTimeoutSeconds);

  return {
    port,
    endpoint: (role) => ({
      role,
      timeoutSeconds,
      approvals: approvals.get(role)!,
      launch: () =>
        Promise.resolve({
          command: bashClientLine(bash, script, { port, role, deadlineSeconds }),
          env: { [HOOK_TOKEN_ENV]: token, [HOOK_REPLY_KEY_ENV]: replyKey },
          timeoutSeconds,
        }),
    }),
    checkedCommands: checked,
    get pendingChecks() {
      return pending;
    },
    close,
  };
}
