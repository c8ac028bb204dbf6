// The decisions table (core/decisions.ts) as the TUI shows it: which waiting state opens a dialog, a choice's
// keys, the status-bar hints and the `decide` event a key sends. Key words live here, never in the core.
import type { Key } from 'ink';
import {
  choicesFor,
  commandQuestion,
  DECISIONS,
  questionOf,
  type Choice,
  type ChoiceId,
  type QuestionKind,
} from '../core/decisions.js';
import type { EngineEvent } from '../core/events.js';
import type { Awaiting, PendingCommand } from '../core/types.js';
import type { Hint } from './keymap.js';

/** The questions that open a dialog; a failure shows a banner (Enter retries, as for a go). */
export type DialogKind = Exclude<QuestionKind, 'failure' | 'command' | 'blocked_command'>;

export function dialogFor(a: Awaiting | null): DialogKind | null {
  const q = a ? questionOf(a) : null;
  return q && q !== 'failure' ? q : null;
}

/** The choices the TUI offers (those with a key) for a waiting state or a held command. */
export function tuiChoices(of: Awaiting | PendingCommand): readonly Choice[] {
  const all: readonly Choice[] = 'kind' in of ? choicesFor(of) : DECISIONS[commandQuestion(of)].choices;
  return all.filter((c) => c.keys.length > 0);
}

/** Does this keypress mean one of `keys` ('Enter', 'Esc' or a character)? */
export function keyPicks(keys: readonly string[], input: string, k: Key): boolean {
  if (k.ctrl) return false;
  return keys.some((spec) => {
    if (spec === 'Enter') return k.return;
    if (spec === 'Esc') return k.escape; // Ink marks Esc as meta too
    if (k.meta) return false;
    return /^[a-z]$/.test(spec) ? input.toLowerCase() === spec : input === spec;
  });
}

/** "y allow once · a allow … · n/Esc/Enter deny" in the status bar. */
export function choiceHints(choices: readonly Choice[]): Hint[] {
  return choices.map((c) => ({ command: null, key: c.keys.join('/'), text: c.label }));
}

/** "r: retry the step · k: skip the step": a dialog's own key line. */
export function choiceKeysText(choices: readonly Choice[]): string {
  return choices.map((c) => `${c.keys.join('/')}: ${c.label}`).join(' · ');
}

/** The key line for one choice of a question ("Enter: retry"), for dialogs and banners with their own layout. */
export function keyOf<K extends QuestionKind>(kind: K, id: ChoiceId<K>): string {
  const c = (DECISIONS[kind].choices as readonly Choice[]).find((x) => x.id === id);
  if (!c) throw new Error(`the decisions table has no choice ${id} for ${kind}`);
  return `${c.keys.join('/')}: ${c.label}`;
}

/** The `decide` event for a choice at a waiting state (`rounds` for the arbitration's "continue"). */
export function decideEvent(a: Awaiting, choice: string, rounds?: number): EngineEvent | null {
  const on = questionOf(a);
  if (!on || on === 'question') return null;
  return (
    rounds === undefined ? { type: 'decide', on, choice } : { type: 'decide', on, choice, rounds }
  ) as EngineEvent;
}

/** The `decide` event for a choice at a held command. */
export function commandDecideEvent(p: PendingCommand, choice: string): EngineEvent {
  return { type: 'decide', on: 'command', id: p.id, choice } as EngineEvent;
}
