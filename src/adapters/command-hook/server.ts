// agent-collab's side of the command hook: a unix socket (0600, in a 0700 temp dir) where the hook program asks
// whether a shell command may run. Each request carries the per-session token; the answer comes from the gate
// (the engine's policy, which may hold the command for the person). Every check is recorded, and approvals are
// kept per role so adapters can notice a command that ran without the hook having approved it.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { CommandGate, CommandVerdict } from '../../engine/ports.js';
import type { Role } from '../../engine/types.js';
import type { DebugSink } from '../process-runner.js';
import { CommandApprovals } from './approvals.js';
import { cliHookTimeoutSeconds, hookDeadlineMs, type HookEndpoint } from './endpoint.js';
import { hookProgramArgv, shellLine } from './hook-program.js';
import { hookArgv, MAX_REQUEST_BYTES, type HookRequest, type HookResponse } from './protocol.js';

export interface CommandHookServerOptions {
  gate: CommandGate;
  /** [safety] confirm_timeout_seconds: the hook waits a bit longer than that, the CLI longer still. */
  confirmTimeoutSeconds: number;
  debug?: DebugSink;
  /** How to start the hook program (argv prefix); default: node on hook-main next to this module. */
  program?: readonly string[];
  /** Parent of the socket's directory; default: the OS temp dir (or /tmp when that path is too long). */
  dir?: string;
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
  readonly socketPath: string;
  /** The hook for one role's agent: the command line, the CLI's timeout, the role's approvals. */
  endpoint(role: Role): HookEndpoint;
  /** Every command a hook asked about (with a valid token), in the order answered. */
  readonly checkedCommands: readonly CheckedCommand[];
  /** Checks the gate has not answered yet. */
  readonly pendingChecks: number;
  /** Stops listening, drops open connections (their hooks deny) and removes the socket. */
  close(): Promise<void>;
}

/** Longest unix socket path Linux accepts (sun_path is 108 bytes with the terminating NUL). */
const MAX_SOCKET_PATH = 107;
const ROLES: readonly Role[] = ['planner', 'reviewer'];

function socketDir(parent: string | undefined): string {
  const candidates = parent !== undefined ? [parent] : [os.tmpdir(), '/tmp'];
  for (const base of candidates) {
    // mkdtemp adds 6 characters; the socket is "hook.sock" inside.
    if (Buffer.byteLength(path.join(base, 'ac-hook-XXXXXX', 'hook.sock')) <= MAX_SOCKET_PATH) {
      return mkdtempSync(path.join(base, 'ac-hook-')); // mode 0700
    }
  }
  throw new Error(`no directory with a short enough path for the command hook's socket (tried ${candidates.join(', ')})`);
}

function parseRequest(line: string): HookRequest | null {
  try {
    const r = JSON.parse(line) as Record<string, unknown>;
    if (typeof r !== 'object' || r === null) return null;
    const { token, role, command, cwd, tool, toolUseId } = r;
    if (typeof token !== 'string' || typeof role !== 'string' || typeof command !== 'string' || typeof cwd !== 'string') return null;
    return { token, role, command, cwd, tool: typeof tool === 'string' ? tool : 'Bash', toolUseId: typeof toolUseId === 'string' ? toolUseId : null };
  } catch {
    return null;
  }
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export async function startCommandHookServer(opts: CommandHookServerOptions): Promise<CommandHookServer> {
  const program = opts.program ?? hookProgramArgv();
  const dir = socketDir(opts.dir);
  const socketPath = path.join(dir, 'hook.sock');
  const token = randomBytes(32).toString('hex');
  const debug = opts.debug ?? (() => undefined);
  const approvals = new Map<Role, CommandApprovals>(ROLES.map((r) => [r, new CommandApprovals()]));
  const checked: CheckedCommand[] = [];
  const sockets = new Set<net.Socket>();
  let pending = 0;

  async function judge(request: HookRequest): Promise<HookResponse> {
    if (!sameSecret(request.token, token)) {
      debug('command-hook', `refused a request with a wrong token (role ${JSON.stringify(request.role)})`);
      return { allow: false, reason: 'agent-collab refused the command check: the hook did not present this session\'s token' };
    }
    const role = ROLES.find((r) => r === request.role);
    if (!role) return { allow: false, reason: `agent-collab refused the command check: unknown role ${JSON.stringify(request.role)}` };
    pending += 1;
    let verdict: CommandVerdict;
    try {
      verdict = await opts.gate({ role, command: request.command, cwd: request.cwd });
    } catch (err) {
      verdict = { allow: false, reason: `agent-collab could not check the command (${(err as Error).message}), so it was denied` };
    } finally {
      pending -= 1;
    }
    // Recorded before the hook hears the answer, so the approval exists before the command can run.
    if (verdict.allow) approvals.get(role)!.record(request.command);
    checked.push({ role, command: request.command, cwd: request.cwd, tool: request.tool, toolUseId: request.toolUseId, verdict });
    debug('command-hook', `${role}: ${verdict.allow ? 'allow' : 'deny'} ${JSON.stringify(request.command)}${verdict.allow ? '' : ` (${verdict.reason})`}`);
    return verdict.allow ? { allow: true } : { allow: false, reason: verdict.reason };
  }

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined); // the hook went away (its own deadline): nothing to answer
    socket.setEncoding('utf8');
    let buffer = '';
    let handled = false;
    socket.on('data', (chunk: string) => {
      if (handled) return;
      buffer += chunk;
      const nl = buffer.indexOf('\n');
      if (nl < 0) {
        if (buffer.length > MAX_REQUEST_BYTES) socket.destroy();
        return;
      }
      handled = true;
      const request = parseRequest(buffer.slice(0, nl));
      const answer: Promise<HookResponse> = request
        ? judge(request)
        : Promise.resolve({ allow: false, reason: 'agent-collab could not read the command check request' });
      void answer.then((response) => {
        if (!socket.destroyed) socket.end(`${JSON.stringify(response)}\n`);
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((err: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  chmodSync(socketPath, 0o600);

  const deadlineMs = hookDeadlineMs(opts.confirmTimeoutSeconds);
  const timeoutSeconds = cliHookTimeoutSeconds(opts.confirmTimeoutSeconds);
  let closed: Promise<void> | null = null;

  return {
    socketPath,
    endpoint: (role) => ({
      role,
      command: shellLine([...program, ...hookArgv({ socketPath, role, token, deadlineMs })]),
      timeoutSeconds,
      approvals: approvals.get(role)!,
    }),
    checkedCommands: checked,
    get pendingChecks() {
      return pending;
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      });
      return closed;
    },
  };
}
