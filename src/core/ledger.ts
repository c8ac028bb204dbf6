// The issue ledger (issue 19): every reviewer comment, of plan and code reviews, is an entry with a stable id (L1,
// L2, …) and a status across rounds. The reviewer's answers open and close entries, the planner's answers say
// which it addressed or disputes. Pure: state in, state out; .agent-collab/ledger.md is rendered from it.
import { parseResponses, parseReview } from './ledger-parse.js';

/**
 * open: raised (or raised again) by the reviewer; addressed / disputed: the planner's latest answer; resolved: the
 * reviewer (or its approval) accepted it as done; withdrawn: the reviewer (or the person) dropped it.
 */
export type LedgerStatus = 'open' | 'addressed' | 'disputed' | 'resolved' | 'withdrawn';

/** Which review an entry belongs to: the plan's, or the code's (`step` null: the run's whole diff). */
export interface LedgerScope {
  review: 'plan' | 'code';
  step: number | null;
}

export interface LedgerEntry extends LedgerScope {
  id: string;
  /** The review round that raised it, and its number in that round's list of comments. */
  round: number;
  number: number;
  /** The reviewer's point. */
  point: string;
  status: LedgerStatus;
  /** The planner's latest answer on it, and whether that answer disputes it. */
  answer: string | null;
  disputed: boolean;
  /** The reviewer's (or the person's) latest word on it. */
  note: string | null;
  /** Reviews that asked for changes and left it live after the planner had disputed it. */
  reraised: number;
}

export interface Ledger {
  /** The number of the next entry's id. */
  next: number;
  entries: LedgerEntry[];
  /** The person allowed more rounds at a disagreement: no stagnation stop in that review up to `round`. */
  quiet: { review: LedgerScope['review']; step: number | null; round: number } | null;
  /** The person sided with the reviewer on these entries: the planner's next prompt says to apply them. */
  ruling: string[];
}

export function emptyLedger(): Ledger {
  return { next: 1, entries: [], quiet: null, ruling: [] };
}

const LIVE: ReadonlySet<LedgerStatus> = new Set(['open', 'addressed', 'disputed']);

export function isLive(e: LedgerEntry): boolean {
  return LIVE.has(e.status);
}

/** The entries still live when the run ended, for its report (undefined: the run has no ledger). */
export function openReviewEntries(
  ledger: Ledger | undefined,
): { id: string; status: LedgerStatus; text: string }[] | undefined {
  if (!ledger) return undefined;
  return ledger.entries.filter(isLive).map((e) => ({
    id: e.id,
    status: e.status,
    text: e.answer ? `${e.point} — planner: ${e.answer}` : e.point,
  }));
}

export function inScope(e: LedgerScope, scope: LedgerScope): boolean {
  return e.review === scope.review && e.step === scope.step;
}

/** The entries of a review still to be settled. */
export function liveEntries(ledger: Ledger | undefined, scope: LedgerScope): LedgerEntry[] {
  return (ledger?.entries ?? []).filter((e) => inScope(e, scope) && isLive(e));
}

function update(ledger: Ledger, ids: ReadonlySet<string>, f: (e: LedgerEntry) => LedgerEntry): Ledger {
  return { ...ledger, entries: ledger.entries.map((e) => (ids.has(e.id) ? f(e) : e)) };
}

/** What a review round did to the ledger: the ledger after it, and how many live entries it settled. */
export interface ReviewOutcome {
  ledger: Ledger;
  settled: number;
  /** Live entries the reviewer said in so many words are still open (what the stagnation rule stands on). */
  kept: number;
}

/**
 * The reviewer's answer of `round`: its word on the live entries, then its new comments as new entries. An approval
 * settles what it does not mention (a disputed entry is withdrawn, any other resolved) and adds nothing: the remarks
 * of an approving review ask for no change. Changes required: an entry the planner disputed and the reviewer does
 * not settle counts as raised again.
 */
export function afterReview(
  ledger: Ledger | undefined,
  scope: LedgerScope,
  round: number,
  text: string,
  approved: boolean,
): ReviewOutcome {
  const base = ledger ?? emptyLedger();
  const live = liveEntries(base, scope);
  const parsed = parseReview(
    text,
    live.map((e) => e.id),
  );
  let settled = 0;
  let kept = 0;
  const touched = update(base, new Set(live.map((e) => e.id)), (e) => {
    const word = parsed.marks.get(e.id);
    const mark = word?.mark ?? (approved ? (e.disputed ? 'withdrawn' : 'resolved') : null);
    const note = word ? word.note || null : e.note;
    if (mark === 'resolved' || mark === 'withdrawn') {
      settled++;
      return { ...e, status: mark, note: note ?? (approved ? 'settled by the approval' : null) };
    }
    if (mark === 'open') kept++;
    // Raised again only when the reviewer says so: an answer the parser cannot read proves nothing either way.
    const reraised = !approved && e.disputed && mark === 'open' ? e.reraised + 1 : e.reraised;
    return { ...e, status: mark === 'open' ? 'open' : e.status, note, reraised };
  });
  if (approved) return { ledger: touched, settled, kept };
  let next = touched.next;
  const added: LedgerEntry[] = parsed.comments.map((c) => ({
    ...scope,
    id: `L${next++}`,
    round,
    number: c.number,
    point: c.text,
    status: 'open',
    answer: null,
    disputed: false,
    note: null,
    reraised: 0,
  }));
  return { ledger: { ...touched, next, entries: [...touched.entries, ...added] }, settled, kept };
}

/**
 * The planner's answer (revised plan, fix steps, or a step's report): its answer per live entry, by id, or by the
 * number of a comment of the latest round. An entry with no answer keeps its status. The person's ruling is used up.
 */
export function afterResponse(ledger: Ledger | undefined, scope: LedgerScope, text: string): Ledger | undefined {
  if (!ledger) return ledger;
  const live = liveEntries(ledger, scope);
  if (live.length === 0 && ledger.ruling.length === 0) return ledger;
  const latest = Math.max(0, ...live.map((e) => e.round));
  const byNumber = (n: number): string | null => live.find((e) => e.round === latest && e.number === n)?.id ?? null;
  const { answers } = parseResponses(
    text,
    live.map((e) => e.id),
    byNumber,
  );
  const answered = update(ledger, new Set(answers.keys()), (e) => {
    const a = answers.get(e.id);
    return a ? { ...e, status: a.mark, answer: a.answer || a.mark, disputed: a.mark === 'disputed' } : e;
  });
  return { ...answered, ruling: [] };
}

/** The person allowed rounds up to `round` of the review: no stagnation stop before them. */
export function quietFor(ledger: Ledger | undefined, scope: LedgerScope, round: number): Ledger | undefined {
  return ledger && { ...ledger, quiet: { review: scope.review, step: scope.step, round } };
}

/** The person settled these entries (sided with the planner): withdrawn, with why. */
export function withdrawByPerson(ledger: Ledger, ids: readonly string[]): Ledger {
  return update(ledger, new Set(ids), (e) => ({
    ...e,
    status: 'withdrawn',
    note: 'withdrawn: the person sided with the planner',
  }));
}

/** The person sided with the reviewer: the entries are open again and the planner is told to apply them. */
export function ruleForReviewer(ledger: Ledger, ids: readonly string[]): Ledger {
  const opened = update(ledger, new Set(ids), (e) => ({
    ...e,
    status: 'open',
    disputed: false,
    reraised: 0,
    note: 'the person sided with the reviewer: to be applied',
  }));
  return { ...opened, ruling: [...ids] };
}
