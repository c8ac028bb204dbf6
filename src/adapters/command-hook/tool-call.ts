// The tool call in a PreToolUse hook's stdin JSON, as both CLIs send it:
// {"session_id","cwd","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":…},"tool_use_id",…}
import { SHELL_TOOL_NAMES } from './protocol.js';

export interface ShellCall {
  tool: string;
  command: string;
  /** The CLI's cwd for the command; null when the input has none. */
  cwd: string | null;
  toolUseId: string | null;
}

/**
 * What the hook input asks: a shell command to check, a tool that is not ours to judge (`not_shell`), or why it
 * cannot be read (`unreadable`, a denial reason ending before ", so the command was denied").
 */
export type ToolCallRead =
  { kind: 'shell'; call: ShellCall } | { kind: 'not_shell'; tool: string } | { kind: 'unreadable'; why: string };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function readToolCall(text: string): ToolCallRead {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'unreadable', why: 'the command hook got input that is not JSON' };
  }
  if (!isObject(json) || typeof json.tool_name !== 'string')
    return { kind: 'unreadable', why: 'the command hook got input without a tool_name' };
  const tool = json.tool_name;
  if (!SHELL_TOOL_NAMES.includes(tool)) return { kind: 'not_shell', tool };
  const input = isObject(json.tool_input) ? json.tool_input : {};
  if (typeof input.command !== 'string') return { kind: 'unreadable', why: `the ${tool} call has no command string` };
  return {
    kind: 'shell',
    call: {
      tool,
      command: input.command,
      cwd: typeof json.cwd === 'string' ? json.cwd : null,
      toolUseId: typeof json.tool_use_id === 'string' ? json.tool_use_id : null,
    },
  };
}
