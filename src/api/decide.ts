// `run({ decide })`: the caller's answer where the run waits for a person, turned into the engine's event with the
// same table and parser as `--decide` / `--answer` (modes/decisions.ts). An answer that is not a choice there is a
// one-line error, never a loop.
import type { EngineEvent } from '../core/events.js';
import type { Awaiting } from '../core/types.js';
import { UserError } from '../core/errors.js';
import { decisionEvent, parseDecision, type Decision } from '../modes/decisions.js';
import type { NeedsHumanEvent } from '../modes/run-events.js';
import type { DecideAnswer } from './types.js';

const DECIDE = '--decide ';

/** "approve | continue:N | cancel | { answer: "…" }": what decide may return at this question. */
function accepted(needsHuman: NeedsHumanEvent): string {
  return needsHuman.choices
    .map((c) =>
      c.flag.startsWith(DECIDE)
        ? c.flag.slice(DECIDE.length)
        : c.flag.startsWith('--answer')
          ? '{ answer: "…" }'
          : null,
    )
    .filter((s): s is string => s !== null)
    .join(' | ');
}

function describe(answer: unknown): string {
  const text = typeof answer === 'string' ? `"${answer}"` : (JSON.stringify(answer) ?? String(answer));
  const one = text.replace(/\s+/g, ' ');
  return one.length > 80 ? `${one.slice(0, 79)}…` : one;
}

/** The engine event for `answer` at `w`; null: no answer, the run ends there. Throws a UserError when it does not apply. */
export function decideEvent(w: Awaiting, needsHuman: NeedsHumanEvent, answer: DecideAnswer): EngineEvent | null {
  if (answer === undefined || answer === null) return null;
  let event: EngineEvent | null = null;
  if (typeof answer === 'string') {
    let decision: Decision | null = null;
    try {
      decision = parseDecision(answer);
    } catch {
      decision = null; // not a --decide spelling at all: said below with what is accepted here
    }
    event = decision ? decisionEvent(w, decision, undefined) : null;
  } else if (typeof answer === 'object' && typeof answer.answer === 'string' && answer.answer.trim()) {
    event = decisionEvent(w, undefined, answer.answer);
  }
  if (event) return event;
  throw new UserError(
    `decide returned ${describe(answer)}, which is not a choice where the run waits (${w.kind}); return one of ${accepted(needsHuman)}, or nothing to stop there (the run is saved; resume it with resume: true)`,
  );
}
