// The issue ledger as text: .agent-collab/ledger.md, and the part of each prompt that names the entries (the
// reviewer says which are settled, the planner answers per id). Pure.
import { isLive, liveEntries, type Ledger, type LedgerEntry, type LedgerScope } from './ledger.js';

function reviewName(e: LedgerScope): string {
  if (e.review === 'plan') return 'plan review';
  return e.step === null ? 'code review' : `code review of step ${e.step}`;
}

/** One line per entry: id, status, where it comes from, the point (for ledger.md's summary and the TUI). */
export function entryLine(e: LedgerEntry): string {
  return `${e.id} [${e.status}] ${reviewName(e)}, round ${e.round}: ${e.point}`;
}

/** .agent-collab/ledger.md: a summary line per entry, then each entry with both sides. */
export function renderLedger(ledger: Ledger): string {
  const out = [
    '# Issue ledger',
    '',
    'Every reviewer comment, with its status across rounds: open, addressed / disputed (the planner), resolved /',
    'withdrawn (the reviewer, its approval, or the person).',
    '',
  ];
  if (ledger.entries.length === 0) return [...out, 'No entries yet.', ''].join('\n');
  const live = ledger.entries.filter(isLive).length;
  out.push(`${ledger.entries.length} entr${ledger.entries.length === 1 ? 'y' : 'ies'}, ${live} still live.`, '');
  for (const e of ledger.entries) out.push(`- ${entryLine(e)}`);
  for (const e of ledger.entries) {
    out.push('', `## ${e.id} — ${e.status} (${reviewName(e)}, round ${e.round}, comment ${e.number})`, '');
    out.push(`- Reviewer: ${e.point}`);
    if (e.answer !== null) out.push(`- Planner (${e.disputed ? 'disputed' : 'addressed'}): ${e.answer}`);
    if (e.note) out.push(`- Latest word: ${e.note}`);
    if (e.reraised > 0) out.push(`- Raised again after the planner disputed it: ${e.reraised} time(s)`);
  }
  return `${out.join('\n')}\n`;
}

const NONE = '(none)';

/** The live entries for the reviewer's next prompt, each with the planner's answer. */
export function ledgerForReviewer(ledger: Ledger | undefined, scope: LedgerScope): string {
  const live = liveEntries(ledger, scope);
  if (live.length === 0) return NONE;
  return live
    .map((e) => {
      const answer =
        e.answer === null ? 'Planner: (no answer)' : `Planner: ${e.disputed ? 'disputed' : 'addressed'} — ${e.answer}`;
      return `- ${e.id} [${e.status}] (round ${e.round}) ${e.point}\n  ${answer}`;
    })
    .join('\n');
}

/** The live entries for the planner's next answer, and the person's ruling if there is one. */
export function ledgerForPlanner(ledger: Ledger | undefined, scope: LedgerScope): string {
  const live = liveEntries(ledger, scope);
  if (live.length === 0) return NONE;
  const lines = live.map((e) => `- ${e.id} (round ${e.round}, comment ${e.number}) ${e.point}`);
  const ruled = (ledger?.ruling ?? []).filter((id) => live.some((e) => e.id === id));
  if (ruled.length)
    lines.push(
      '',
      `The person sided with the reviewer on ${ruled.join(', ')}: apply ${ruled.length === 1 ? 'it' : 'them'} now; do not dispute ${ruled.length === 1 ? 'it' : 'them'} again.`,
    );
  return lines.join('\n');
}
