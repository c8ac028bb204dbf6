import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { EngineOutput } from '../../../src/core/events.js';
import { createPrinter } from '../../../src/modes/printer.js';
import { entriesOf, initialView, reduceView } from '../../../src/ui/view-model.js';
import { stateIn } from '../../helpers/states.js';

function sink(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

const REPORT: Extract<EngineOutput, { type: 'report' }> = {
  type: 'report',
  status: 'PARTIAL',
  ending: 'stopped',
  path: '/repo/.agent-collab/runs/r1/report.md',
  stepsDone: 1,
  stepsTotal: 2,
  commits: 1,
  filesChanged: 3,
  tokens: 12_345,
  costUsd: 0.5,
  agentMinutes: 2.25,
};

describe('the run report event', () => {
  it('NDJSON: a `report` event with the status, the path and the key numbers', () => {
    const out = sink();
    createPrinter({ json: true, out: out.stream, err: sink().stream }).output(REPORT);
    expect(JSON.parse(out.text())).toMatchObject({
      event: 'report',
      status: 'PARTIAL',
      ending: 'stopped',
      path: REPORT.path,
      steps_done: 1,
      steps_total: 2,
      commits: 1,
      files_changed: 3,
      tokens: 12_345,
      cost_usd: 0.5,
      agent_minutes: 2.25,
    });
  });

  it('text mode: one line with the status and the path', () => {
    const out = sink();
    createPrinter({ json: false, out: out.stream, err: sink().stream }).output(REPORT);
    expect(out.text()).toBe(`[report] PARTIAL: ${REPORT.path}\n`);
  });

  it('the TUI view keeps the report for the end screen and adds a conversation entry with its numbers', () => {
    const v = reduceView(initialView(stateIn('REFINE_GOAL'), { now: 0 }), REPORT, 1000);
    expect(v.report).toMatchObject({ status: 'PARTIAL', path: REPORT.path });
    const last = entriesOf(v).at(-1);
    expect(last?.text).toBe(
      'Run report: PARTIAL — 1/2 step(s) done, 1 commit(s), 3 file(s) changed; 12,345 tokens, $0.50, 2.3 min of agent time',
    );
    expect(last?.detail).toBe(REPORT.path);
    expect(v.flash?.text).toBe(`Run report (PARTIAL): ${REPORT.path}`);
  });
});
