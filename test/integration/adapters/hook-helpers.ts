// Runs agent-collab's hook client the way the CLIs do (`sh -c <command>` with the CLI's environment, tool call JSON
// on stdin) and returns its raw stdout and exit code.
import { spawn } from 'node:child_process';

export interface HookRun {
  code: number | null;
  stdout: string;
}

export function bashCall(command: string, cwd = '/tmp'): string {
  return JSON.stringify({
    session_id: 's-1',
    cwd,
    hook_event_name: 'PreToolUse',
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: 'toolu_1',
  });
}

export interface HookRunOptions {
  /** Added to this process's environment (the hook's token). */
  env?: Record<string, string>;
  timeoutMs?: number;
  /** Called once the hook process runs (`sh -c 'exec …'`, so the pid is the hook's own). */
  started?: (pid: number) => void;
}

export function runHookCommand(commandLine: string, stdin: string, opts: HookRunOptions = {}): Promise<HookRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', `exec ${commandLine}`], {
      env: { ...process.env, ...opts.env },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    if (child.pid !== undefined) opts.started?.(child.pid);
    let stdout = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 20_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout });
    });
  });
}

/** The decision and reason of a hook's stdout, which must be exactly one PreToolUse hookSpecificOutput object. */
export function decision(stdout: string): { permissionDecision: string; permissionDecisionReason: string } {
  const parsed = JSON.parse(stdout) as Record<string, unknown>;
  const out = parsed.hookSpecificOutput as Record<string, string>;
  if (
    Object.keys(parsed).join() !== 'hookSpecificOutput' ||
    Object.keys(out).join() !== 'hookEventName,permissionDecision,permissionDecisionReason' ||
    out.hookEventName !== 'PreToolUse'
  ) {
    throw new Error(`not the PreToolUse output shape: ${stdout}`);
  }
  return { permissionDecision: out.permissionDecision!, permissionDecisionReason: out.permissionDecisionReason! };
}
