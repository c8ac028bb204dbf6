// When a review loop has stopped making progress (issue 19): the rule, and the disagreement brief the person is
// asked with. Pure.
//
// The rule, checked after a review round that asks for changes, before the round cap:
// - never in the first round of a review (nothing could be settled yet), nor when no entry of that review was live
//   before the round (nothing could be settled: a reviewer whose comments no ledger entry came from is left to the
//   cap), nor within the extra rounds the person allowed at an earlier brief;
// - stagnant when an entry the planner disputed has been raised again twice (two reviews asking for changes that
//   did not settle it, the reviewer saying it is still open), or when the round settled no entry (none resolved nor
//   withdrawn) and the reviewer said at least one is still open.
import { liveEntries, type Ledger, type LedgerScope, type LedgerStatus, type ReviewOutcome } from './ledger.js';

/** One entry of the brief: the reviewer's point and the planner's answer side by side. */
export interface Dispute {
  id: string;
  status: LedgerStatus;
  reviewer: string;
  /** The planner's latest answer (null: it gave none). */
  planner: string | null;
  /** The planner's answer disputes the point (else it says it addressed it, or gave none). */
  disputed: boolean;
}

/** Why the loop is stagnant after `round` of the review in `scope`, or null when it goes on. */
export function stagnation(
  before: Ledger | undefined,
  outcome: ReviewOutcome,
  scope: LedgerScope,
  round: number,
): string | null {
  if (round <= 1) return null;
  const quiet = outcome.ledger.quiet;
  if (quiet && quiet.review === scope.review && quiet.step === scope.step && round <= quiet.round) return null;
  if (liveEntries(before, scope).length === 0) return null;
  const twice = liveEntries(outcome.ledger, scope).filter((e) => e.disputed && e.reraised >= 2);
  if (twice.length)
    return `the reviewer raised ${twice.map((e) => e.id).join(', ')} again twice after the planner disputed ${twice.length === 1 ? 'it' : 'them'}`;
  // Only a reviewer who kept an entry open in so many words shows the loop is stuck; one whose ledger lines could not
  // be read (a table, prose) is left to the round cap rather than stopped on a guess.
  if (outcome.settled === 0 && outcome.kept > 0) return `review round ${round} settled no ledger entry`;
  return null;
}

/** The live entries of the review, the disputed ones first: what the person rules on. */
export function disputesOf(ledger: Ledger | undefined, scope: LedgerScope): Dispute[] {
  return liveEntries(ledger, scope)
    .map((e) => ({ id: e.id, status: e.status, reviewer: e.point, planner: e.answer, disputed: e.disputed }))
    .sort((a, b) => Number(b.disputed) - Number(a.disputed));
}
