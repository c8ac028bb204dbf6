// A scripted agent for tests and `agent-collab demo`: no LLM, deterministic answers.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Agent, AgentEvent, AgentTurn } from '../../core/types.js';
import type { HookEndpoint } from '../command-hook/endpoint.js';
import { answerFor, filesFor } from './defaults.js';
import type { FakeAction, FakeRule, FakeScript } from './script.js';
import { runScriptedCommands } from './shell-commands.js';

export interface FakeAgentOptions {
  /** Session ids are `<prefix>-<random>`; default: the agent's name. */
  sessionPrefix?: string;
  /** Session ids resume() accepts even with `loseSessions` (e.g. ids from a previous process). */
  knownSessions?: string[];
  /** agent-collab's command hook; scripted `run` commands go through it (without it they do not run). */
  hook?: HookEndpoint;
}

export interface FakeTurnRecord {
  method: 'start' | 'resume';
  sessionId: string;
  turn: AgentTurn;
}

function matches(rule: FakeRule, turn: AgentTurn, resumed: boolean): boolean {
  const w = rule.when ?? {};
  return (
    (w.role === undefined || w.role === turn.meta.role) &&
    (w.kind === undefined || w.kind === turn.meta.kind) &&
    (w.iteration === undefined || w.iteration === turn.meta.iteration) &&
    (w.step === undefined || w.step === turn.meta.step) &&
    (w.resumed === undefined || w.resumed === resumed)
  );
}

function wait(ms: number | null, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = ms === null ? null : setTimeout(done, ms);
    function done(): void {
      if (timer) clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}

export const STREAM_LINE = 'line {n}: compiling src/module-{n}.ts … ok';
const STREAM_CHUNK = 500;

/** The text of a FakeStream's line `n`: the template with every `{n}` replaced. */
function streamLine(template: string): (n: number) => string {
  const parts = template.split('{n}');
  return parts.length === 1 ? () => template : (n) => parts.join(String(n));
}

export class FakeAgent implements Agent {
  /** Every turn received, in order. */
  readonly turns: FakeTurnRecord[] = [];
  private readonly sessions = new Set<string>();
  private readonly uses: number[];
  private readonly running = new Set<AbortController>();

  constructor(
    readonly name: string,
    private readonly script: FakeScript,
    private readonly opts: FakeAgentOptions = {},
  ) {
    this.uses = script.rules.map(() => 0);
  }

  start(turn: AgentTurn): AsyncIterable<AgentEvent> {
    const sessionId = `${this.opts.sessionPrefix ?? this.name}-${randomUUID().slice(0, 8)}`;
    this.sessions.add(sessionId);
    this.turns.push({ method: 'start', sessionId, turn });
    return this.run(sessionId, turn, this.pick(turn, false));
  }

  resume(sessionId: string, turn: AgentTurn): AsyncIterable<AgentEvent> {
    this.turns.push({ method: 'resume', sessionId, turn });
    const known = this.sessions.has(sessionId) || (this.opts.knownSessions ?? []).includes(sessionId);
    if (!known && this.script.loseSessions) {
      const message = `session ${sessionId} not found`;
      return this.run(sessionId, turn, { fail: { kind: 'session_lost', message } });
    }
    this.sessions.add(sessionId);
    return this.run(sessionId, turn, this.pick(turn, true));
  }

  /** Ends every running turn: hanging or delayed turns finish without `done`. */
  stop(): Promise<void> {
    for (const ctl of this.running) ctl.abort();
    this.running.clear();
    return Promise.resolve();
  }

  /** First matching rule that still has uses left; none → defaults by turn kind. */
  private pick(turn: AgentTurn, resumed: boolean): FakeAction {
    const i = this.script.rules.findIndex(
      (rule, k) => matches(rule, turn, resumed) && (rule.times === undefined || (this.uses[k] ?? 0) < rule.times),
    );
    const rule = this.script.rules[i];
    if (!rule) return {};
    this.uses[i] = (this.uses[i] ?? 0) + 1;
    return rule.do;
  }

  /** The controller is registered at call time, so stop() also ends a turn not iterated yet. */
  private run(sessionId: string, turn: AgentTurn, action: FakeAction): AsyncIterable<AgentEvent> {
    const ctl = new AbortController();
    this.running.add(ctl);
    return this.events(sessionId, turn, action, ctl);
  }

  private async *events(
    sessionId: string,
    turn: AgentTurn,
    action: FakeAction,
    ctl: AbortController,
  ): AsyncGenerator<AgentEvent> {
    const started = Date.now();
    try {
      const failKind = action.fail?.kind;
      if (failKind !== 'missing_binary' && failKind !== 'session_lost') yield { type: 'session', sessionId };
      for (const event of action.events ?? []) {
        if (ctl.signal.aborted) return;
        yield event;
      }
      if (action.stream) {
        // Made a line at a time (a long stream is never held in memory), a chunk per event-loop turn.
        const { lines, perChunk = STREAM_CHUNK } = action.stream;
        const line = streamLine(action.stream.text ?? STREAM_LINE);
        for (let n = 0; n < lines;) {
          await new Promise((r) => setImmediate(r));
          if (ctl.signal.aborted) return;
          for (const end = Math.min(lines, n + perChunk); n < end; n++) yield { type: 'text', text: line(n) };
        }
      }
      if (action.run !== undefined) {
        const commands = typeof action.run === 'string' ? [action.run] : action.run;
        yield* runScriptedCommands(commands, {
          cwd: turn.cwd,
          sessionId,
          hook: this.opts.hook ?? null,
          signal: ctl.signal,
        });
      }
      if (action.delayMs) await wait(action.delayMs, ctl.signal);
      if (ctl.signal.aborted) return;
      if (action.fail) {
        const { kind, message, resetInMs } = action.fail;
        const resetAt = resetInMs === undefined ? action.fail.resetAt : new Date(Date.now() + resetInMs).toISOString();
        yield resetAt ? { type: 'error', kind, message, resetAt } : { type: 'error', kind, message };
        return;
      }
      if (action.hang) {
        // A hung agent is a live process: it keeps the event loop alive, as a real CLI child would.
        const alive = setInterval(() => undefined, 60_000);
        try {
          await wait(null, ctl.signal);
        } finally {
          clearInterval(alive);
        }
        return;
      }
      const text = action.question ?? answerFor(turn, action);
      if (action.question !== undefined) {
        yield { type: 'question', text };
      } else {
        const changes = await this.writeFiles(turn, filesFor(turn, action));
        yield { type: 'text', text };
        yield* changes;
      }
      if (ctl.signal.aborted) return;
      const usage = { inputTokens: Math.ceil(turn.prompt.length / 4), outputTokens: Math.ceil(text.length / 4) };
      yield { type: 'usage', ...usage, cachedTokens: 0, costUsd: 0, durationMs: Date.now() - started };
      yield { type: 'done', sessionId, text };
    } finally {
      this.running.delete(ctl);
    }
  }

  /** Writes the files (workspace-write only) and returns the events describing what happened. */
  private async writeFiles(turn: AgentTurn, files: Record<string, string>): Promise<AgentEvent[]> {
    const events: AgentEvent[] = [];
    const root = path.resolve(turn.cwd);
    for (const [rel, content] of Object.entries(files)) {
      const target = path.resolve(root, rel);
      if (turn.access !== 'workspace-write') {
        events.push({ type: 'tool_result', output: `read-only: refused to write ${rel}`, isError: true });
      } else if (!target.startsWith(root + path.sep)) {
        events.push({ type: 'tool_result', output: `refused to write ${rel}: outside the workspace`, isError: true });
      } else {
        const kind = existsSync(target) ? 'update' : 'add';
        try {
          await mkdir(path.dirname(target), { recursive: true });
          await writeFile(target, content);
          events.push({ type: 'file_change', path: rel, kind });
        } catch (err) {
          events.push({ type: 'tool_result', output: `cannot write ${rel}: ${(err as Error).message}`, isError: true });
        }
      }
    }
    return events;
  }
}
