// Makes what confinement refused visible in the run's output: a command whose write hit the read-only file system,
// a codex patch that could not be applied inside a protected dir or outside the repo, a claude file tool call its
// permission rules denied. Each becomes one extra agent event naming the call, after the event that showed it.
import path from 'node:path';
import type { AgentEvent } from '../../core/types.js';
import type { ConfinedTurn } from './turn.js';

/** The start of every refusal's text (the event is a `tool_result` with isError and id REFUSAL_ID). */
export const REFUSAL_PREFIX = 'confinement refused: ';
export const REFUSAL_ID = 'agent-collab-confinement';

const READ_ONLY_FS = /Read-only file system|EROFS/;
const STDERR_PATCH_REJECTED = /\bpatch rejected: (.+)$/i;
const CLAUDE_RULE_DENIAL = /denied by your permission settings|haven't granted it yet|is a sensitive file/;

function clip(text: string, max = 300): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length <= max ? one : `${one.slice(0, max - 1)}…`;
}

function describeCall(name: string, input: unknown): string {
  const i = (input ?? {}) as Record<string, unknown>;
  const target = [i.file_path, i.notebook_path, i.command, i.path].find((v) => typeof v === 'string');
  return typeof target === 'string' ? `${name} ${target}` : name;
}

export class RefusalWatcher {
  private readonly calls = new Map<string, string>();

  constructor(private readonly turn: ConfinedTurn) {}

  /** The refusal `ev` shows, as an event to emit after it; null when it shows none. */
  see(ev: AgentEvent): AgentEvent | null {
    if (ev.type === 'tool_call') {
      if (ev.id !== undefined) this.calls.set(ev.id, describeCall(ev.name, ev.input));
      return null;
    }
    if (ev.type === 'command' && ev.status !== 'started' && READ_ONLY_FS.test(ev.output ?? ''))
      return refusal(`a write by the command ${clip(ev.command)} (read-only file system)`);
    if (ev.type === 'tool_result' && ev.isError && ev.id !== REFUSAL_ID) {
      const call = ev.id !== undefined ? this.calls.get(ev.id) : undefined;
      if (CLAUDE_RULE_DENIAL.test(ev.output) || READ_ONLY_FS.test(ev.output))
        return refusal(
          `${call ? clip(call) : 'a tool call'} (${clip(ev.output.replace(/<\/?tool_use_error>/g, ''), 120)})`,
        );
      const patch = /^patch not applied \([^)]*\): (.*)$/s.exec(ev.output);
      if (patch && patch[1]!.split(', ').some((p) => this.isProtected(p)))
        return refusal(`a patch of ${clip(patch[1]!)} (outside the working tree or in a read-only dir)`);
    }
    return null;
  }

  /**
   * Refusals a CLI gives only on stderr: codex 0.169 `exec --json` emits no event for a patch it rejects for writing
   * outside the project, only the line `patch rejected: writing outside of the project`. One event per such line.
   */
  seeStderr(stderr: string): AgentEvent[] {
    const out: AgentEvent[] = [];
    for (const line of stderr.split('\n')) {
      const m = STDERR_PATCH_REJECTED.exec(line);
      if (m) out.push(refusal(`a patch (${clip(m[1]!, 160)})`));
    }
    return out;
  }

  /** Outside the repo, or in its .git or agent-collab's work dir. */
  private isProtected(file: string): boolean {
    const abs = path.resolve(this.turn.repo, file);
    const inside = (dir: string) => abs === dir || abs.startsWith(`${dir}${path.sep}`);
    return (
      !inside(this.turn.repo) ||
      inside(path.join(this.turn.repo, '.git')) ||
      inside(path.resolve(this.turn.repo, this.turn.workdir))
    );
  }
}

function refusal(what: string): AgentEvent {
  return { type: 'tool_result', id: REFUSAL_ID, output: `${REFUSAL_PREFIX}${what}`, isError: true };
}
