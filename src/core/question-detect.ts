// Does an agent's final answer end by asking the person something, instead of doing what the turn asked?
// Used only when the CLI gives no structured signal. Biased against false positives: a plan, a verdict or a
// step summary is an answer even when it contains question marks.
import { parseSteps } from './plan-steps.js';
import type { TurnKind } from './types.js';
import { parseVerdict } from './verdict.js';

const PHRASES = [
  /\bshould i\b/i,
  /\bshall i\b/i,
  /\bdo you want\b/i,
  /\bwould you like\b/i,
  /\bwould you prefer\b/i,
  /\bcan you (?:confirm|clarify|tell me)\b/i,
  /\bcould you (?:confirm|clarify|tell me)\b/i,
  /\bplease (?:confirm|clarify|let me know)\b/i,
  /\blet me know (?:which|whether|if|how)\b/i,
  /\bwhich (?:one|option|approach|of these)\b.*\?/i,
  /请问/,
  /是否/,
  /需要我/,
];

const MAX_QUESTION = 600;

function lastParagraph(text: string): string {
  const paragraphs = text
    .replace(/```[\s\S]*?```/g, '')
    .trim()
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  return paragraphs.at(-1) ?? '';
}

/** The question to show the person, or null when the answer is not a question. */
export function detectQuestion(kind: TurnKind, text: string): string | null {
  const answer = text.trim();
  if (!answer) return null;
  switch (kind) {
    case 'refine':
      return null; // refinement is a conversation already: the person replies anyway
    case 'review': {
      // a verdict, or a botched one the engine re-asks about, is an answer; only a marker-less text may be a question
      const v = parseVerdict(answer);
      if (v.kind !== 'changes_required' || v.marker) return null;
      break;
    }
    case 'write_plan':
    case 'respond':
      if (parseSteps(answer).length > 0) return null;
      break;
    case 'execute_step':
      if (/^\s*summary:/im.test(answer)) return null;
      break;
  }
  const last = lastParagraph(answer);
  if (!last || last.length > MAX_QUESTION) return null;
  const endsWithQuestion = /[?？]\s*[*_)`"']*\s*$/.test(last);
  if (endsWithQuestion || PHRASES.some((re) => re.test(last))) return last;
  return null;
}
