// Headless output: NDJSON events (--json) or short human-readable lines, redacted on the way out (core/redact.ts):
// every string of an NDJSON event, every text line. Text mode shows control characters (an agent's ESC, BEL, CR …)
// instead of passing them to the terminal; NDJSON carries them JSON-escaped.
import type { Writable } from 'node:stream';
import type { EngineOutput } from '../core/events.js';
import { noticeText } from '../core/notice-text.js';
import { escapeJsonControls, neutralizeControls } from '../core/terminal-text.js';
import { REFUSAL_ID } from '../adapters/confinement/refusals.js';
import type { AgentEvent, Awaiting, Phase, WorkflowState } from '../core/types.js';
import { patternRedactor, type Redactor } from '../core/redact.js';
import {
  doneEvent,
  needsHumanEvent,
  runEventOf,
  waitingEvent,
  type RunEvent,
  type RunEventBody,
} from './run-events.js';

export interface Printer {
  output(out: EngineOutput): void;
  notice(message: string): void;
  needsHuman(w: Awaiting, phase: Phase, hint: string): void;
  /** The run is parked until a usage limit's reset (core/usage-limit.ts): it goes on by itself then. */
  waiting(w: Extract<Awaiting, { kind: 'usage_limit' }>): void;
  done(state: WorkflowState, exitCode: number): void;
  /** Settles once stdout has taken what was written (undefined when it has): the engine waits on a slow reader. */
  drained(): Promise<void> | undefined;
}

/** Resolves when `out` wants more (or is gone); undefined when it does already. */
function drainOf(out: Writable): Promise<void> | undefined {
  if (!out.writableNeedDrain || out.destroyed) return undefined;
  return new Promise((resolve) => {
    const done = (): void => {
      out.off('drain', done);
      out.off('close', done);
      out.off('error', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
    out.on('error', done);
  });
}

const MAX_LINE = 200;

function clip(text: string, max = MAX_LINE): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length <= max ? one : `${one.slice(0, max - 1)}…`;
}

function describeAgentEvent(e: AgentEvent): string | null {
  switch (e.type) {
    case 'text':
      return clip(e.text);
    case 'tool_call':
      return `tool ${e.name}`;
    case 'command':
      return e.status === 'started' ? `$ ${clip(e.command, 120)}` : null;
    case 'file_change':
      return `${e.kind} ${e.path}`;
    case 'question':
      return `asks: ${clip(e.text)}`;
    case 'error':
      return `error (${e.kind}): ${clip(e.message)}`;
    case 'retry':
      return `retry: ${clip(e.message)}`;
    case 'tool_result':
      // What confinement refused (adapters/confinement/refusals.ts); other tool results stay in debug.log.
      return e.id === REFUSAL_ID ? e.output : null;
    default:
      return null;
  }
}

function formatUsage(u: { inputTokens: number; outputTokens: number; costUsd: number; durationMs: number }): string {
  const cost = u.costUsd ? `, $${u.costUsd.toFixed(4)}` : '';
  return `${u.inputTokens} in / ${u.outputTokens} out tokens${cost}, ${(u.durationMs / 1000).toFixed(1)} s`;
}

export interface PrinterOptions {
  json: boolean;
  out: Writable;
  err: Writable;
  redactor?: Redactor;
  /** JSON mode: each event goes here instead of a line on `out` (the library API). */
  onEvent?: (event: RunEvent) => void;
}

export function createPrinter(opts: PrinterOptions): Printer {
  const redactor = opts.redactor ?? patternRedactor;
  const say = (text: string): void => {
    opts.out.write(`${neutralizeControls(redactor.text(text))}\n`);
  };
  const warn = (text: string): void => {
    opts.err.write(`agent-collab: ${neutralizeControls(redactor.text(text))}\n`);
  };
  const drained = (): Promise<void> | undefined => drainOf(opts.out);
  if (opts.json) {
    // Stamped, redacted and serialized once: the CLI writes the line, the library API hands `onEvent` the line's
    // object (a copy: no undefined fields, nothing shared with the engine's state).
    const emit = (body: RunEventBody): void => {
      const text = JSON.stringify(redactor.deep({ ts: new Date().toISOString(), ...body }));
      if (opts.onEvent) opts.onEvent(JSON.parse(text) as RunEvent);
      else opts.out.write(`${escapeJsonControls(text)}\n`);
    };
    return {
      drained,
      output(out) {
        const body = runEventOf(out);
        if (body) emit(body);
      },
      notice: (message) => emit({ event: 'notice', message }),
      needsHuman: (w, phase, hint) => emit(needsHumanEvent(w, phase, hint)),
      waiting: (w) => emit(waitingEvent(w)),
      done: (state, exitCode) => emit(doneEvent(state, exitCode)),
    };
  }
  return {
    drained,
    output(out) {
      switch (out.type) {
        case 'phase':
          return say(
            `== ${out.to}${out.to === 'REVIEW' || out.to === 'RESPOND' ? ` (after ${out.iteration} review round(s))` : ''}`,
          );
        case 'agent_event': {
          const d = describeAgentEvent(out.event);
          return d ? say(`[${out.role}] ${d}`) : undefined;
        }
        case 'notice': {
          const n = out.notice;
          if (n.kind === 'verdict') return say(`[verdict] ${n.verdict} (iteration ${n.iteration})`);
          if (n.kind === 'round')
            return n.usage.calls ? say(`[${n.role}] ${n.action}: ${formatUsage(n.usage)}`) : undefined;
          return say(`[${n.kind}] ${noticeText(n)}`);
        }
        case 'rejected':
          return say(`[rejected] ${out.message}`);
        case 'error':
          warn(out.message);
          return;
        case 'report':
          return say(`[report] ${out.status}: ${out.path}`);
        default:
          return;
      }
    },
    notice: (message) => warn(message),
    needsHuman: (_w, phase, hint) => say(`[needs you] ${phase}: ${hint}`),
    waiting: (w) =>
      say(
        `[waiting] the ${w.role} hit a usage limit; waiting until ${w.until} (the reset plus a margin), then the ${w.action.kind} round runs again; Ctrl+C stops (continue later with --resume)`,
      ),
    done: (state, exitCode) =>
      say(
        `== stopped in ${state.phase} (exit ${exitCode}); iteration ${state.iteration}, ${state.steps.filter((s) => s.done).length}/${state.steps.length} step(s) done; ` +
          `${state.usage.calls} agent call(s): ${formatUsage(state.usage)}`,
      ),
  };
}
