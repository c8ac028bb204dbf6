// `agent-collab queue`: runs the inbox (src/queue/) from the command line. Text mode says a line per instruction;
// `--json` prints every queue event and every event of the runs (tagged with the instruction) as NDJSON. Ctrl+C
// stops the run under way (saved as a run's Ctrl+C) and the queue with it.
import type { Writable } from 'node:stream';
import { createRedactor, secretEnvValues } from '../core/redact.js';
import { neutralizeControls } from '../core/terminal-text.js';
import type { QueueEvent } from '../queue/queue-events.js';
import { runQueue, type QueueOptions } from '../queue/queue.js';

export interface QueueModeOptions extends Omit<QueueOptions, 'onEvent' | 'signal'> {
  json: boolean;
  stdout?: Writable;
  /** Handle SIGINT/SIGTERM (the CLI does). */
  handleSignals?: boolean;
  signal?: AbortSignal;
}

function textLine(e: QueueEvent): string | null {
  switch (e.event) {
    case 'queue_started':
      return e.instructions.length
        ? `queue: ${e.instructions.length} instruction(s): ${e.instructions.join(', ')}`
        : 'queue: no instruction waits in .agent-collab/inbox/';
    case 'instruction_started':
      return `▶ ${e.instruction}${e.resumed ? ' (going on with its run)' : ''}${e.branch ? ` in ${e.cwd} (branch ${e.branch})` : ''}`;
    case 'instruction_finished':
      return `${e.status === 'SUCCESS' ? '✓' : '✗'} ${e.instruction}: ${e.status}: ${e.reason}\n  report: ${e.report}`;
    case 'queue_done': {
      const c = Object.entries(e.counts)
        .filter(([, n]) => n > 0)
        .map(([k, n]) => `${n} ${k}`);
      const rest = e.not_started.length ? `; not started: ${e.not_started.join(', ')}` : '';
      return `queue: ${c.join(', ') || 'nothing run'}${rest}`;
    }
    default:
      return null;
  }
}

export async function runQueueMode(opts: QueueModeOptions): Promise<number> {
  const out = opts.stdout ?? process.stdout;
  const redactor = createRedactor(secretEnvValues(process.env));
  const stop = new AbortController();
  const forward = (): void => stop.abort();
  opts.signal?.addEventListener('abort', forward, { once: true });
  if (opts.handleSignals) {
    process.once('SIGINT', forward);
    process.once('SIGTERM', forward);
  }
  const onEvent = (e: QueueEvent): void => {
    if (opts.json) {
      // The runs' events come stamped and redacted already; the queue's own are stamped here.
      const line = 'ts' in e ? e : { ts: new Date().toISOString(), ...e };
      out.write(`${JSON.stringify(redactor.deep(line))}\n`);
      return;
    }
    const text = textLine(e);
    if (text !== null) out.write(`${neutralizeControls(redactor.text(text))}\n`);
  };
  try {
    const { exitCode } = await runQueue({ ...opts, signal: stop.signal, onEvent });
    return exitCode;
  } finally {
    opts.signal?.removeEventListener('abort', forward);
    process.off('SIGINT', forward);
    process.off('SIGTERM', forward);
  }
}
