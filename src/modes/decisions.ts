// What a person can decide from the command line when the run waits (`--decide`, `--answer`): the spellings and
// what they do come from the decisions table (core/decisions.ts).
import type { EngineEvent } from '../core/events.js';
import type { Awaiting } from '../core/types.js';
import { UserError } from '../core/errors.js';
import {
  CANCEL,
  choicesFor,
  decideSpelling,
  decideSpellings,
  decideWord,
  DECISIONS,
  questionOf,
  type Question,
} from '../core/decisions.js';

/** A parsed `--decide`: the word, and for `continue:N` the number of rounds. */
export interface Decision {
  word: string;
  rounds?: number;
}

const MAX_ROUNDS = 100;

/** "approve | continue:N | edit | …": every spelling `--decide` accepts. */
function decideList(): string {
  return decideSpellings().join(' | ');
}

export function parseDecision(text: string): Decision {
  const t = text.trim().toLowerCase();
  const m = /^([a-z-]+)(?::(\d+))?$/.exec(t);
  const spellings = decideSpellings();
  const word = m?.[1] ?? '';
  if (!m || !spellings.some((s) => s === word || s === `${word}:N`))
    throw new UserError(`--decide must be one of ${decideList()} (got "${text}")`);
  const takesRounds = spellings.includes(`${word}:N`);
  if (m[2] !== undefined && !takesRounds) throw new UserError(`--decide ${word} takes no number (got "${text}")`);
  if (!takesRounds) return { word };
  // A plain "continue" is one more round at the iteration cap (and "go on without the commit" after a failed one).
  const rounds = Number(m[2] ?? '1');
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > MAX_ROUNDS)
    throw new UserError(`--decide ${word}:N needs N from 1 to ${MAX_ROUNDS} (got "${text}")`);
  return { word, rounds };
}

/** The event that carries out `decision` while the run waits for `w`; null when it does not apply there. */
export function decisionEvent(
  w: Awaiting,
  decision: Decision | undefined,
  answer: string | undefined,
): EngineEvent | null {
  if ((w.kind === 'question' || w.kind === 'interrupted') && answer?.trim()) return { type: 'answer', text: answer };
  if (!decision) return null;
  const q = questionOf(w);
  const picked = choicesFor(w).find((c) => decideWord(c) === decision.word);
  if (!q || q === 'question' || !picked) return decision.word === decideWord(CANCEL) ? { type: 'cancel' } : null;
  if ((q === 'arbitration' || q === 'code_review_cap' || q === 'disagreement') && picked.id === 'continue')
    return { type: 'decide', on: q, choice: 'continue', rounds: decision.rounds ?? 1 };
  return { type: 'decide', on: q, choice: picked.id } as EngineEvent;
}

/** The `--decide` lines of `--help`: one per question, its spellings and what happened. */
export function decideHelpLines(): string[] {
  const lines: string[] = [];
  for (const q of Object.values(DECISIONS) as Question[]) {
    const words = q.choices.map(decideSpelling).filter((w): w is string => w !== null);
    if (words.length) lines.push(`${words.join(' | ')} (${q.about})`);
  }
  lines.push(`${decideWord(CANCEL)} (anywhere: ${CANCEL.description})`);
  return lines;
}
