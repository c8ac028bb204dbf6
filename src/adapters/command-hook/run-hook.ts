// Runs the PreToolUse hook the way both CLIs do: `sh -c <hook command>` in the turn's cwd with the hook's variables
// in its environment, the tool call as JSON on stdin, the CLI's timeout, the decision read from stdout. Unlike the
// CLIs it fails CLOSED: a hook that times out, exits non-zero or prints no decision is a deny. Used by the fake
// agent (and tests) to exercise the real hook.
import { spawn } from 'node:child_process';
import type { CommandVerdict } from '../../core/ports.js';
import type { HookEndpoint, HookLaunch } from './endpoint.js';

export interface HookCall {
  command: string;
  cwd: string;
  sessionId?: string;
  toolUseId?: string;
  /** Default "Bash". */
  toolName?: string;
}

/** The decision in a hook's stdout, or null when there is none. */
export function parseHookDecision(stdout: string): CommandVerdict | null {
  for (const line of stdout.split('\n').reverse()) {
    if (!line.trim().startsWith('{')) continue;
    try {
      const out = (
        JSON.parse(line) as {
          hookSpecificOutput?: { permissionDecision?: unknown; permissionDecisionReason?: unknown };
        }
      ).hookSpecificOutput;
      const reason = typeof out?.permissionDecisionReason === 'string' ? out.permissionDecisionReason : '';
      if (out?.permissionDecision === 'allow') return { allow: true };
      if (out?.permissionDecision === 'deny') return { allow: false, reason: reason || 'denied by the command hook' };
    } catch {
      // not JSON
    }
  }
  return null;
}

/** Runs `hook` (waiting for its launch) on one tool call. */
export async function runHook(hook: Pick<HookEndpoint, 'launch'>, call: HookCall): Promise<CommandVerdict> {
  let launch: HookLaunch;
  try {
    launch = await hook.launch();
  } catch (err) {
    return { allow: false, reason: (err as Error).message };
  }
  return runHookLaunch(launch, call);
}

/** Runs a launched hook on one tool call: its command line under `sh -c`, its env added to this process's. */
export function runHookLaunch(hook: HookLaunch, call: HookCall): Promise<CommandVerdict> {
  const input = {
    session_id: call.sessionId ?? 'agent-collab',
    cwd: call.cwd,
    hook_event_name: 'PreToolUse',
    permission_mode: 'default',
    tool_name: call.toolName ?? 'Bash',
    tool_input: { command: call.command },
    tool_use_id: call.toolUseId ?? null,
  };
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const child = spawn('sh', ['-c', hook.command], {
      cwd: call.cwd,
      env: { ...process.env, ...hook.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, hook.timeoutSeconds * 1000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d.slice(0, 2_000)));
    child.stdin.on('error', () => undefined); // the hook may exit without reading
    child.stdin.end(JSON.stringify(input));
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ allow: false, reason: `the command hook could not be started (${err.message})` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut)
        return resolve({ allow: false, reason: `the command hook did not answer within ${hook.timeoutSeconds} s` });
      const decision = code === 0 ? parseHookDecision(stdout) : null;
      const why =
        code === 0
          ? 'printed no decision'
          : `exited with code ${code}${stderr.trim() ? `: ${stderr.trim().split('\n')[0]}` : ''}`;
      resolve(decision ?? { allow: false, reason: `the command hook ${why}` });
    });
  });
}
