// AgentEvents that several CLIs' translators build alike, each from its own wire format (what is read from the
// lines stays in each translator; only the event's shape is shared).
import type { AgentEvent, FailureKind } from '../core/types.js';

/** An error event: its kind, the message shown, and when a usage limit resets if the CLI said. */
export function errorEvent(f: { kind: FailureKind; resetAt?: string | undefined }, message: string): AgentEvent {
  return f.resetAt
    ? { type: 'error', kind: f.kind, message, resetAt: f.resetAt }
    : { type: 'error', kind: f.kind, message };
}

/** A shell command's end. `exitCode`: NaN when the CLI's output did not say it. */
export function commandEnded(
  id: string,
  command: string,
  isError: boolean,
  exitCode: number,
  output: string,
): AgentEvent[] {
  return [
    {
      type: 'command',
      id,
      command,
      status: isError ? 'failed' : 'completed',
      exitCode: Number.isNaN(exitCode) ? null : exitCode,
      output,
    },
  ];
}

/** A (non-shell) tool call's result, and the file it wrote when it succeeded. */
export function toolResultEvents(
  id: string,
  output: string,
  isError: boolean,
  written: { path: string | null; kind: 'add' | 'update' },
): AgentEvent[] {
  const events: AgentEvent[] = [{ type: 'tool_result', id, output, isError }];
  if (written.path && !isError) events.push({ type: 'file_change', path: written.path, kind: written.kind });
  return events;
}
