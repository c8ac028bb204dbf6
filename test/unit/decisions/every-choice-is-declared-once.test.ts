// The decisions table is the one place a person's choices are spelled: --decide, --help, the needs_human event,
// the headless hints and the core all follow it.
import { readFileSync } from 'node:fs';
import { fromPackageRoot } from '../../../src/package-root.js';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  CANCEL,
  choicesFor,
  decideSpellings,
  decideWord,
  DECISIONS,
  type Choice,
} from '../../../src/core/decisions.js';
import { transition } from '../../../src/core/transition.js';
import type { Awaiting, WorkflowState } from '../../../src/core/types.js';
import { decisionEvent, parseDecision } from '../../../src/modes/decisions.js';
import { hintFor } from '../../../src/modes/headless.js';
import { HELP } from '../../../src/modes/help.js';
import { createPrinter } from '../../../src/modes/printer.js';
import { OPTS, stateIn } from '../../helpers/states.js';

/** One waiting state of every kind, in a state where it can happen. */
const WAITING: Array<{ w: Awaiting; state: Partial<WorkflowState> }> = [
  { w: { kind: 'arbitration', iteration: 5 }, state: { phase: 'REVIEW', iteration: 5 } },
  { w: { kind: 'manual_edit' }, state: { phase: 'REVIEW', iteration: 5 } },
  { w: { kind: 'unclear_verdict', text: 'hmm', action: { kind: 'review', reask: true } }, state: { phase: 'REVIEW' } },
  {
    w: { kind: 'failure', role: 'planner', failure: 'infra', message: 'HTTP 500', action: { kind: 'write_plan' } },
    state: { phase: 'WRITE_PLAN' },
  },
  {
    w: { kind: 'question', role: 'planner', text: 'Which database?', action: { kind: 'write_plan' } },
    state: { phase: 'WRITE_PLAN' },
  },
  {
    w: {
      kind: 'step_failed',
      step: 1,
      attempt: 4,
      category: 'test_failure',
      message: 'npm test failed',
      rolledBack: false,
    },
    state: { phase: 'EXECUTE', currentStep: 1 },
  },
  {
    w: { kind: 'step_failed', step: 1, attempt: 4, category: 'test_failure', message: 'rolled back', rolledBack: true },
    state: { phase: 'EXECUTE', currentStep: 1 },
  },
  {
    w: {
      kind: 'forbidden_change',
      step: 1,
      attempt: 1,
      changes: ["branch 'sneaky' created"],
      undone: ["branch 'sneaky' deleted (it was at bbbbbbb)"],
    },
    state: { phase: 'EXECUTE', currentStep: 1 },
  },
  {
    w: {
      kind: 'secret_found',
      step: 1,
      summary: 'add config',
      findings: [{ file: '.env', line: 1, kind: '.env file' }],
    },
    state: { phase: 'EXECUTE', currentStep: 1 },
  },
  {
    w: {
      kind: 'commit_failed',
      step: 1,
      summary: 'add config',
      message: 'git commit of step 1 failed: hook; fix it, then retry',
    },
    state: { phase: 'EXECUTE', currentStep: 1 },
  },
  {
    w: { kind: 'external_change', file: 'plan', role: 'planner', action: { kind: 'respond' }, text: '# plan' },
    state: { phase: 'RESPOND' },
  },
  {
    w: {
      kind: 'usage_limit',
      role: 'reviewer',
      message: 'usage limit reached',
      action: { kind: 'review' },
      resetAt: '2026-01-01T01:00:00.000Z',
      until: '2026-01-01T01:00:30.000Z',
    },
    state: { phase: 'REVIEW' },
  },
  { w: { kind: 'go', action: { kind: 'review' } }, state: { phase: 'REVIEW' } },
  { w: { kind: 'goal' }, state: { phase: 'REFINE_GOAL' } },
  { w: { kind: 'interrupted', role: 'reviewer', action: { kind: 'review' } }, state: { phase: 'REVIEW' } },
];

const STEPS = [{ n: 1, title: 'add config', done: false }];
const waitingAt = ({ w, state }: (typeof WAITING)[number]): WorkflowState =>
  stateIn(state.phase ?? 'REVIEW', { steps: STEPS, ...state, awaiting: w });

/** What a person types after --decide for a choice ("continue:N" → "continue:2"). */
const typed = (c: Choice): string => (c.flag ?? '').replace(/^--decide /, '').replace(':N', ':2');

describe('the decisions table', () => {
  it('--decide accepts exactly the spellings the user guide documents', () => {
    const guide = readFileSync(fromPackageRoot('docs/user-guide.md'), 'utf8');
    const row = guide.split('\n').find((line) => line.startsWith('| `--decide <choice>` |')) ?? '';
    const documented = [...row.matchAll(/`(?:--decide )?([a-z-]+(?::N)?)`/g)].map((m) => m[1]!);
    expect(documented.length).toBeGreaterThan(10);
    const accepted = new Set(decideSpellings().flatMap((s) => (s.endsWith(':N') ? [s, s.slice(0, -2)] : [s])));
    expect(accepted).toEqual(new Set(documented));
    for (const s of accepted) expect(() => parseDecision(s.replace(':N', ':3'))).not.toThrow();
    for (const other of [
      'force_approve',
      'commit_anyway',
      'leave_uncommitted',
      'changes_required',
      'allow-once',
      'deny',
      'answer',
      'continue:0',
      'retry:2',
    ]) {
      expect(() => parseDecision(other)).toThrow(/--decide/);
    }
  });

  it('--help lists every --decide spelling', () => {
    for (const s of decideSpellings()) expect(HELP).toContain(s);
  });

  it('each question’s --decide choices are accepted by the core where the run waits for them', () => {
    for (const sample of WAITING) {
      for (const c of choicesFor(sample.w)) {
        if (!c.flag?.startsWith('--decide ')) continue;
        const event = decisionEvent(sample.w, parseDecision(typed(c)), undefined);
        expect(event, `${sample.w.kind} / ${c.id}`).not.toBeNull();
        expect(() => transition(waitingAt(sample), event!, OPTS), `${sample.w.kind} / ${c.id}`).not.toThrow();
      }
      // cancel applies wherever the run waits
      expect(decisionEvent(sample.w, parseDecision('cancel'), undefined)).toMatchObject({
        type: sample.w.kind === 'arbitration' ? 'decide' : 'cancel',
      });
    }
  });

  it('a choice that does not apply where the run waits is not sent', () => {
    const rolledBack = WAITING[6]!.w;
    expect(decisionEvent(rolledBack, parseDecision('rollback'), undefined)).toBeNull();
    expect(decisionEvent({ kind: 'arbitration', iteration: 5 }, parseDecision('merge'), undefined)).toBeNull();
  });

  it('the needs_human event lists the valid choices with their flags', () => {
    for (const { w } of WAITING) {
      const out = new PassThrough();
      let text = '';
      out.on('data', (b: Buffer) => (text += b.toString()));
      createPrinter({ json: true, out, err: new PassThrough() }).needsHuman(w, 'REVIEW', hintFor(w));
      const event = JSON.parse(text) as { choices: Array<{ id: string; flag: string; description: string }> };
      const expected = [...choicesFor(w), ...(choicesFor(w).some((c) => c.id === CANCEL.id) ? [] : [CANCEL])];
      expect(event.choices.map((c) => c.flag)).toEqual(expected.map((c) => c.flag));
      for (const c of event.choices) expect(c.description).not.toBe('');
    }
  });

  it('needs_human for a failing step offers what a person types, cancel included, and not rollback once rolled back', () => {
    const flagsAt = (w: Awaiting): string[] => {
      const out = new PassThrough();
      let text = '';
      out.on('data', (b: Buffer) => (text += b.toString()));
      createPrinter({ json: true, out, err: new PassThrough() }).needsHuman(w, 'EXECUTE', hintFor(w));
      return (JSON.parse(text) as { choices: Array<{ flag: string }> }).choices.map((c) => c.flag);
    };
    const failing = { kind: 'step_failed', step: 1, attempt: 4, category: 'test_failure', message: 'x' } as const;
    expect(flagsAt({ ...failing, rolledBack: false })).toEqual([
      '--decide retry',
      '--decide skip',
      '--decide rollback',
      '--decide stop',
      '--decide cancel',
    ]);
    expect(flagsAt({ ...failing, rolledBack: true })).toEqual([
      '--decide retry',
      '--decide skip',
      '--decide stop',
      '--decide cancel',
    ]);
  });

  it('needs_human for a forbidden change names what changed and what was undone, and offers what a person types', () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (b: Buffer) => (text += b.toString()));
    const w: Awaiting = {
      kind: 'forbidden_change',
      step: 1,
      attempt: 1,
      changes: ['HEAD moved from aaaaaaa to bbbbbbb', "branch 'sneaky' created", '.agent-collab/plan.md changed'],
      undone: ["branch 'sneaky' deleted (it was at bbbbbbb)"],
    };
    createPrinter({ json: true, out, err: new PassThrough() }).needsHuman(w, 'EXECUTE', hintFor(w));
    const event = JSON.parse(text) as { changes: string[]; hint: string; choices: Array<{ flag: string }> };
    expect(event.changes).toEqual(w.changes);
    expect(event.hint).toContain(
      "HEAD moved from aaaaaaa to bbbbbbb; branch 'sneaky' created; .agent-collab/plan.md changed",
    );
    expect(event.choices.map((c) => c.flag)).toEqual([
      '--decide retry',
      '--decide skip',
      '--decide rollback',
      '--decide stop',
      '--decide cancel',
    ]);
  });

  it('headless hints name the flags of every choice and never a key', () => {
    for (const { w } of WAITING) {
      const hint = hintFor(w);
      expect(hint, w.kind).not.toMatch(/\bpress\b|\bEnter\b|\bEsc\b|Ctrl\+|\bkey\b/i);
      for (const c of choicesFor(w)) {
        const word = decideWord(c);
        if (word) expect(hint, `${w.kind} / ${c.id}`).toMatch(new RegExp(`--decide [^;—]*\\b${word}\\b`));
        else if (c.flag) expect(hint).toContain(c.flag);
      }
    }
  });

  it('every choice the TUI offers has a key, a label and a description; keys are unique per question', () => {
    for (const [kind, q] of Object.entries(DECISIONS)) {
      const keys = q.choices.flatMap((c: Choice) => c.keys);
      expect(new Set(keys).size, kind).toBe(keys.length);
      for (const c of q.choices as readonly Choice[]) {
        expect(c.label, `${kind}/${c.id}`).not.toBe('');
        expect(c.description, `${kind}/${c.id}`).not.toBe('');
        expect(c.keys.length > 0 || c.flag !== null, `${kind}/${c.id} is offered somewhere`).toBe(true);
      }
    }
  });
});
