/**
 * Hostile agents for the containment e2e tests (issue 17): what a scripted model tries to do that must not stick,
 * in each CLI's own tool shapes, and snapshots of what it must not change (git, files outside the repo, $HOME).
 * The tests assert effects with these snapshots; the attempts' ids and commands let them find how the run
 * reported each refusal.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { JsonLine } from './harness.js';
import { reply, type ToolCall, type ToolsReply } from './llm-server.js';

export type CliName = 'claude' | 'codex';

/** One thing the agent tries: a shell command, or a file tool call (its id lets the test find its result). */
export interface Attempt {
  what: string;
  reply: ToolsReply;
  /** Set for shell attempts: the command the agent runs. */
  command?: string;
  /** Set for claude's file tools: the tool_use id, to find its tool_result. */
  toolId?: string;
  /** How agent-collab names the change when the attempt stuck and its after-turn check caught it. */
  caughtAs?: RegExp;
}

let seq = 0;
const toolId = (label: string) => `toolu_${label.replace(/[^a-z0-9]/gi, '_')}_${++seq}`;

/** A shell command in the CLI's shape (claude Bash, codex exec_command; the codex call gets a known id). */
export function shellAttempt(
  cli: CliName,
  what: string,
  command: string,
  extra: Record<string, unknown> = {},
): Attempt {
  if (cli === 'claude') return { what, command, reply: reply.tool('Bash', { command, ...extra }) };
  const id = `call_${what.replace(/[^a-z0-9]/gi, '_')}_${++seq}`;
  return { what, command, toolId: id, reply: reply.tools([{ name: 'exec_command', input: { cmd: command }, id }]) };
}

/** claude: a tool call with a known id. */
export function claudeTool(what: string, name: string, input: Record<string, unknown>): Attempt {
  const id = toolId(what);
  const call: ToolCall = { name, input, id };
  return { what, toolId: id, reply: reply.tools([call]) };
}

/** codex: an apply_patch call (its call id lets the test find what codex told the model). */
export function codexPatch(what: string, patch: string): Attempt {
  const id = `call_${what.replace(/[^a-z0-9]/gi, '_')}_${++seq}`;
  return { what, toolId: id, reply: reply.tools([{ name: 'apply_patch', input: patch, custom: true, id }]) };
}

/** Creates `file` with `content` (a new file: claude Write / codex apply_patch Add File). */
export function writeNewFile(cli: CliName, what: string, file: string, content: string): Attempt {
  if (cli === 'claude') return claudeTool(what, 'Write', { file_path: file, content });
  const lines = content.replace(/\n$/, '').split('\n');
  return codexPatch(
    what,
    `*** Begin Patch\n*** Add File: ${file}\n${lines.map((l) => `+${l}`).join('\n')}\n*** End Patch\n`,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Snapshots of what the agent must not change

export function git(repo: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/**
 * Everything of git's that only agent-collab may change: HEAD, the branch, every ref, worktrees, the stash — and
 * what would make git run the agent's code later (`.git/config`, `.git/hooks/`).
 */
export interface GitSnapshot {
  branch: string;
  head: string;
  refs: string[];
  worktrees: string[];
  stash: string;
  config: string;
  hooks: string[];
}

export function gitSnapshot(repo: string): GitSnapshot {
  return {
    branch: git(repo, 'symbolic-ref', '-q', 'HEAD'),
    head: git(repo, 'rev-parse', 'HEAD'),
    refs: git(repo, 'for-each-ref', '--format=%(refname) %(objectname)').split('\n').filter(Boolean),
    worktrees: git(repo, 'worktree', 'list', '--porcelain')
      .split('\n')
      .filter((l) => l.startsWith('worktree ')),
    stash: git(repo, 'stash', 'list'),
    config: readFileSync(path.join(repo, '.git', 'config'), 'utf8'),
    hooks: readdirSync(path.join(repo, '.git', 'hooks')).sort(),
  };
}

/** The same snapshot with `refs/heads/<branch>` moved to `head` (what agent-collab's own step commit changes). */
export function withBranchAt(before: GitSnapshot, head: string): GitSnapshot {
  return {
    ...before,
    head,
    refs: before.refs.map((r) => (r.startsWith(`${before.branch} `) ? `${before.branch} ${head}` : r)),
  };
}

/** File contents by path (null: absent), to compare before and after. */
export function fileStates(files: string[]): Record<string, string | null> {
  return Object.fromEntries(files.map((f) => [f, existsSync(f) ? readFileSync(f, 'utf8') : null]));
}

/** Files changed by a commit. */
export function commitFiles(repo: string, rev: string): string[] {
  return git(repo, 'show', '--name-only', '--format=', rev).split('\n').filter(Boolean).sort();
}

// ---------------------------------------------------------------------------------------------------------------
// How the run reported an attempt

/** The agent's own events in the run's NDJSON (`event: 'agent'`). */
function agentEvents(lines: JsonLine[]): JsonLine[] {
  return lines.filter((l) => l.event === 'agent');
}

/**
 * How the run's NDJSON shows that the attempt did not go through, or null when it shows nothing: agent-collab's
 * hook denied the command, the command failed (non-zero exit, with its output), the tool call's result is an
 * error, or — when it stuck — agent-collab's after-turn check named the change (`needs_human` forbidden_change).
 * (A shell command that "succeeded" without effect — e.g. a script that swallows its errors — is not a refusal the
 * run reported.)
 */
export function refusalReported(lines: JsonLine[], a: Attempt): string | null {
  return refusedAtOnce(lines, a) ?? caughtAfterwards(lines, a);
}

/** The change agent-collab's after-turn check named (and undid) for this attempt. */
function caughtAfterwards(lines: JsonLine[], a: Attempt): string | null {
  if (a.caughtAs === undefined) return null;
  for (const l of lines) {
    if (l.event !== 'needs_human' || l.kind !== 'forbidden_change' || !Array.isArray(l.changes)) continue;
    const named = (l.changes as unknown[]).map(String).find((c) => a.caughtAs!.test(c));
    if (named !== undefined) return `caught after the turn: ${named}`;
  }
  return null;
}

function refusedAtOnce(lines: JsonLine[], a: Attempt): string | null {
  if (a.command !== undefined) {
    const denied = lines.find((l) => l.event === 'command' && l.command === a.command && l.decision === 'deny');
    if (denied) return `denied by the policy: ${String(denied.reason ?? denied.rule)}`;
    const failed = agentEvents(lines).find(
      (l) => l.type === 'command' && l.command === a.command && l.status === 'failed',
    );
    if (failed) return `failed (exit ${String(failed.exitCode)}): ${String(failed.output ?? '').slice(0, 200)}`;
    // codex reports its command with a shell wrapper (`/bin/bash -lc '<cmd>'`)
    const wrapped = agentEvents(lines).find(
      (l) =>
        l.type === 'command' &&
        typeof l.command === 'string' &&
        l.command.includes(a.command!) &&
        l.status === 'failed',
    );
    if (wrapped) return `failed (exit ${String(wrapped.exitCode)}): ${String(wrapped.output ?? '').slice(0, 200)}`;
    return null;
  }
  if (a.toolId !== undefined) {
    const result = agentEvents(lines).find((l) => l.type === 'tool_result' && l.id === a.toolId && l.isError === true);
    return result ? `tool error: ${String(result.output).slice(0, 200)}` : null;
  }
  return null;
}

/**
 * What codex told the model about its tool call `callId` (the `custom_tool_call_output` / `function_call_output`
 * in a later request), or null when no request carried it.
 */
export function codexToolOutput(requests: Array<{ body: unknown }>, callId: string): string | null {
  for (const q of requests) {
    const input = (q.body as { input?: unknown }).input;
    if (!Array.isArray(input)) continue;
    for (const item of input as Array<Record<string, unknown>>) {
      const isOutput = item.type === 'custom_tool_call_output' || item.type === 'function_call_output';
      if (isOutput && item.call_id === callId) return String(item.output);
    }
  }
  return null;
}

/** A codex patch the run reported as not applied, naming `file`. */
export function failedPatchNaming(lines: JsonLine[], file: string): JsonLine | undefined {
  return agentEvents(lines).find(
    (l) =>
      l.type === 'tool_result' &&
      l.isError === true &&
      String(l.output).startsWith('patch not applied') &&
      String(l.output).includes(file),
  );
}

export const here = (repo: string, ...p: string[]) => path.join(repo, ...p);
