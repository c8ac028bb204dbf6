// run({ decide })'s answers become the same engine events as `--decide` / `--answer`; anything else is one line
// that names what is accepted at that question.
import { describe, expect, it } from 'vitest';
import { decideEvent } from '../../../src/api/decide.js';
import { needsHumanEvent } from '../../../src/modes/run-events.js';
import type { Awaiting } from '../../../src/core/types.js';
import type { DecideAnswer } from '../../../src/api/types.js';

const arbitration: Awaiting = { kind: 'arbitration', iteration: 3 };
const question: Awaiting = {
  kind: 'question',
  role: 'planner',
  text: 'Tabs?',
  action: { kind: 'write_plan' },
} as Awaiting;
const go: Awaiting = { kind: 'go', action: { kind: 'review' } } as Awaiting;

const at = (w: Awaiting, answer: DecideAnswer) => decideEvent(w, needsHumanEvent(w, 'REVIEW', 'hint'), answer);

describe('decide answers', () => {
  it('are the --decide choices: continue:N carries its rounds, a plain continue is one, cancel applies anywhere', () => {
    expect(at(arbitration, 'approve')).toEqual({ type: 'decide', on: 'arbitration', choice: 'approve' });
    expect(at(arbitration, 'continue:2')).toEqual({ type: 'decide', on: 'arbitration', choice: 'continue', rounds: 2 });
    expect(at(arbitration, ' Continue ')).toEqual({
      type: 'decide',
      on: 'arbitration',
      choice: 'continue',
      rounds: 1,
    });
    expect(at(go, 'cancel')).toEqual({ type: 'cancel' });
  });

  it("{ answer } answers an agent's question, as --answer does", () => {
    expect(at(question, { answer: 'tabs' })).toEqual({ type: 'answer', text: 'tabs' });
  });

  it('nothing ends the run there (null), whatever the question', () => {
    expect(at(arbitration, undefined)).toBeNull();
    expect(at(question, null)).toBeNull();
  });

  it('anything else is one line naming what is accepted there', () => {
    expect(() => at(arbitration, 'retry')).toThrow(
      'decide returned "retry", which is not a choice where the run waits (arbitration); return one of approve | continue:N | edit | cancel, or nothing to stop there (the run is saved; resume it with resume: true)',
    );
    expect(() => at(question, 'approve')).toThrow(
      /^decide returned "approve", .* \(question\); return one of \{ answer: "…" \} \| cancel,/,
    );
    expect(() => at(question, { answer: '  ' })).toThrow(/^decide returned \{"answer":" "\}/);
    expect(() => at(arbitration, { answer: 'yes' })).toThrow(/\(arbitration\)/);
    expect(() => at(arbitration, 42 as unknown as DecideAnswer)).toThrow(/^decide returned 42, /);
    expect(() => at(arbitration, 'continue:0')).toThrow(/^decide returned "continue:0", /);
    expect(() => at(go, 'approve')).toThrow(/\(go\); return one of cancel, or nothing/);
  });
});
