// The fake agent's scripted shell commands: each is put to agent-collab's command hook exactly as the real CLIs
// do, and runs (`sh -c`, in the turn's cwd) only when the hook allowed it and its approval is on record.
import { execa } from 'execa';
import type { AgentEvent } from '../../core/types.js';
import type { HookEndpoint } from '../command-hook/endpoint.js';
import { runHook } from '../command-hook/run-hook.js';
import { adoptGroup } from '../owned-processes.js';
import { terminateGroup } from '../process-group.js';
import { TOOL_OUTPUT_MAX_BYTES, truncateMiddle } from '../truncate.js';

/** A scripted command may run this long. */
const COMMAND_TIMEOUT_MS = 5 * 60_000;
/** How long a stopped command may take to end after SIGTERM before SIGKILL. */
const KILL_GRACE_MS = 2_000;

export async function* runScriptedCommands(
  commands: readonly string[],
  ctx: { cwd: string; sessionId: string; hook: HookEndpoint | null; signal: AbortSignal },
): AsyncGenerator<AgentEvent> {
  for (const [i, command] of commands.entries()) {
    if (ctx.signal.aborted) return;
    const id = `${ctx.sessionId}-cmd-${i + 1}`;
    if (ctx.hook === null) {
      yield notRun(id, command, 'not run: the fake agent has no command hook to ask');
      continue;
    }
    const verdict = await runHook(ctx.hook, { command, cwd: ctx.cwd, sessionId: ctx.sessionId, toolUseId: id });
    if (ctx.signal.aborted) return;
    if (!verdict.allow) {
      yield notRun(id, command, `Command blocked by PreToolUse hook: ${verdict.reason}`);
      continue;
    }
    if (!ctx.hook.approvals.take(command)) {
      yield notRun(id, command, 'not run: the hook said allow but agent-collab has no approval on record');
      continue;
    }
    yield { type: 'command', id, command, status: 'started' };
    // In a process group of its own, as the real CLIs are run (process-runner.ts): stopping the turn ends the whole
    // command (`sh` and what it started), not only `sh`, whose children would keep the output pipe open.
    const child = execa('sh', ['-c', command], {
      cwd: ctx.cwd,
      stdin: 'ignore',
      all: true,
      reject: false,
      timeout: COMMAND_TIMEOUT_MS,
      detached: true,
    });
    const pgid = child.pid;
    const release = pgid === undefined ? () => undefined : adoptGroup(pgid, 0);
    const stop = (): void => void (pgid === undefined ? undefined : terminateGroup(pgid, KILL_GRACE_MS));
    ctx.signal.addEventListener('abort', stop, { once: true });
    let r: Awaited<typeof child>;
    try {
      r = await child;
    } finally {
      ctx.signal.removeEventListener('abort', stop);
      if (pgid !== undefined) await terminateGroup(pgid, KILL_GRACE_MS); // what it left in the background
      release();
    }
    const exitCode = r.exitCode ?? null;
    yield {
      type: 'command',
      id,
      command,
      status: exitCode === 0 ? 'completed' : 'failed',
      exitCode,
      output: truncateMiddle(r.all ?? '', TOOL_OUTPUT_MAX_BYTES),
    };
  }
}

/** A command that never ran: a failed command event saying why. */
function notRun(id: string, command: string, why: string): AgentEvent {
  return { type: 'command', id, command, status: 'failed', exitCode: null, output: why };
}
