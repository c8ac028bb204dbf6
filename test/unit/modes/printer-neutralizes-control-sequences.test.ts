import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { EngineOutput } from '../../../src/core/events.js';
import { createPrinter } from '../../../src/modes/printer.js';

const ESC = '\u001b';
const HOSTILE = `${ESC}[2J${ESC}]52;c;cm0gLXJmIH4=\u0007\u009b31m\rX`;
// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

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

const outputs: EngineOutput[] = [
  { type: 'agent_event', role: 'planner', event: { type: 'text', text: `hi ${HOSTILE}` } },
  {
    type: 'agent_event',
    role: 'planner',
    event: { type: 'command', id: 'c', command: `ls ${HOSTILE}`, status: 'started' },
  },
  { type: 'agent_event', role: 'reviewer', event: { type: 'question', text: `why ${HOSTILE}?` } },
  { type: 'error', message: `codex said ${HOSTILE}` },
];

function print(json: boolean): { out: string; err: string } {
  const out = sink();
  const err = sink();
  const p = createPrinter({ json, out: out.stream, err: err.stream });
  for (const o of outputs) p.output(o);
  p.notice(`notice ${HOSTILE}`);
  return { out: out.text(), err: err.text() };
}

describe('headless output and control sequences', () => {
  it('text mode: agent text, commands, questions and errors show ␛ / ␇ instead of raw controls', () => {
    const { out, err } = print(false);
    for (const text of [out, err]) expect(text).not.toMatch(ANY_CONTROL);
    expect(out).toContain('[planner] hi ␛[2J␛]52;c;cm0gLXJmIH4=␇');
    expect(out).toContain('[planner] $ ls ␛[2J');
    expect(err).toContain('agent-collab: codex said ␛[2J');
    expect(err).toContain('agent-collab: notice ␛[2J');
  });

  it('NDJSON: every control JSON-escaped (C1 and DEL too), the values intact', () => {
    const { out } = print(true);
    expect(out).not.toMatch(ANY_CONTROL);
    const events = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events[0]).toMatchObject({ event: 'agent', type: 'text', text: `hi ${HOSTILE}` });
    expect(events[1]).toMatchObject({ event: 'agent', type: 'command', command: `ls ${HOSTILE}` });
    expect(events.at(-1)).toMatchObject({ event: 'notice', message: `notice ${HOSTILE}` });
  });
});
