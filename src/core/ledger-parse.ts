// Reads the issue ledger's markers out of the agents' free-form answers (issue 19): the reviewer's word on earlier
// entries (`L3: resolved` / `withdrawn` / `open`) and its new comments, the planner's answer per entry
// (`L3: addressed — …` / `L3: disputed — …`, or by the comment's number). Tolerant on purpose: real CLIs answer in
// free form, so what cannot be read is simply not there and the entries keep their status.
import { normalizeMarkerLine, stripAnswerWrapping } from './verdict.js';

export type ReviewerMark = 'resolved' | 'withdrawn' | 'open';
export type PlannerMark = 'addressed' | 'disputed';

/** A reviewer's comment or a planner's answer kept in the ledger (state.json stays small). */
const TEXT_MAX = 1_000;
const MAX_COMMENTS = 50;

const HEADING_RE = /^\s{0,3}#{1,6}\s+(.*)$/;
/** A list item: its indent, its number (if numbered), its text. */
const ITEM_RE = /^(\s*)(?:\*\*)?(?:(\d+)[.)]|[-*+])(?:\*\*)?\s+(.*)$/;
/** An entry id at the start of a line's text, maybe in emphasis or brackets: `L3:`, `**L3**`, `[L3]`, `L3 —`. */
const ID_RE = /^(?:\*\*|__|`|\[)?\s*(L\d+)\s*(?:\*\*|__|`|\])?(?=$|[\s:.,;)(—–-])\s*[:.,;)—–-]*\s*(.*)$/i;
const NONE_RE = /^(?:none|nothing|no (?:further |more |new )?(?:comments?|remarks?|issues?)|n\/a)\b[\s.!]*$/i;

interface Item {
  indent: number;
  number: number | null;
  text: string;
}

/** The top-level list items of `lines` (continuation lines joined to their item), and lines outside any item. */
function items(lines: readonly string[]): Item[] {
  const out: Item[] = [];
  for (const line of lines) {
    const m = ITEM_RE.exec(line);
    if (m) {
      out.push({
        indent: (m[1] ?? '').replace(/\t/g, '    ').length,
        number: m[2] ? Number(m[2]) : null,
        text: (m[3] ?? '').trim(),
      });
      continue;
    }
    const last = out.at(-1);
    if (last && line.trim() !== '') last.text = `${last.text} ${line.trim()}`;
  }
  if (out.length === 0) return out;
  const least = Math.min(...out.map((i) => i.indent));
  // A nested item details the item above it: joined to it, not an item of its own.
  const top: Item[] = [];
  for (const it of out) {
    const parent = top.at(-1);
    if (it.indent > least && parent) parent.text = `${parent.text} ${it.text}`;
    else top.push({ ...it });
  }
  return top;
}

/** Lines grouped under their heading (`null`: before the first heading). */
function sections(text: string): Array<{ heading: string | null; lines: string[] }> {
  const out: Array<{ heading: string | null; lines: string[] }> = [{ heading: null, lines: [] }];
  for (const line of stripAnswerWrapping(text).split(/\r?\n/)) {
    const h = HEADING_RE.exec(line);
    // `### 1. Title`: a comment written as a numbered heading is an item of the section it is in.
    if (h && /^\d+[.)]\s/.test(h[1] ?? '')) out[out.length - 1]?.lines.push(h[1] ?? '');
    else if (h) out.push({ heading: normalizeMarkerLine(h[1] ?? '').toLowerCase(), lines: [] });
    else out[out.length - 1]?.lines.push(line);
  }
  return out;
}

/** At most TEXT_MAX characters, cut between words: a token cut in two (a secret) would no longer be redacted. */
function clip(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  if (one.length <= TEXT_MAX) return one;
  const head = one.slice(0, TEXT_MAX);
  const space = head.lastIndexOf(' ');
  return `${space > 0 ? head.slice(0, space) : ''}…`;
}

/** `L3` (any case) at the start of an item's or a line's text, when it is one of `known`, and what follows it. */
function leadingId(text: string, known: ReadonlySet<string>): { id: string; rest: string } | null {
  const m = ID_RE.exec(normalizeMarkerLine(text));
  const id = m?.[1]?.toUpperCase();
  if (!m || !id || !known.has(id)) return null;
  return { id, rest: (m[2] ?? '').trim() };
}

/** A Markdown table row whose cell is a known id: the id and the cells after it (`| **L3** | ✅ resolved | ok |`). */
function tableRowId(line: string, known: ReadonlySet<string>): { id: string; rest: string } | null {
  if (!line.includes('|')) return null;
  const cells = line
    .split('|')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  for (let i = 0; i < cells.length; i++) {
    const hit = leadingId(cells[i] ?? '', known);
    if (hit && hit.rest === '') return { id: hit.id, rest: cells.slice(i + 1).join(' — ') };
  }
  return null;
}

/** Every line (or list item) of the answer that starts with a known id. */
function idLines(text: string, known: ReadonlySet<string>): Array<{ id: string; rest: string }> {
  const out: Array<{ id: string; rest: string }> = [];
  for (const { lines } of sections(text)) {
    for (const it of items(lines)) {
      const hit = leadingId(it.text, known);
      if (hit) out.push(hit);
    }
    // Lines that are no list item: `L3: resolved` on a line of its own, or a table row `| L3 | resolved | … |`.
    for (const line of lines) {
      if (ITEM_RE.test(line)) continue;
      const hit = leadingId(line, known) ?? tableRowId(line, known);
      if (hit && !out.some((o) => o.id === hit.id)) out.push(hit);
    }
  }
  return out;
}

/** The text after the id with emphasis and leading punctuation removed ("**resolved** — ok" → "resolved — ok"). */
function plain(rest: string): string {
  return rest
    .replace(/\*\*|__|`/g, '')
    .replace(/^[\s:.,;([—–-]+/, '')
    .trim();
}

const REVIEWER_LEAD: ReadonlyArray<[RegExp, ReviewerMark]> = [
  [
    /^(?:still open|still|open|re-?opened?|unresolved|not (?:yet |fully |really |quite |entirely )?(?:resolved|fixed|addressed|done)|partly|partially|insist(?:ed|ing)?)\b/,
    'open',
  ],
  [/^(?:withdrawn?|withdrawing|retracted|dropped|conceded?)\b/, 'withdrawn'],
  [/^(?:resolved|fixed|addressed|done|ok(?:ay)?|accepted|closed|satisfied)\b/, 'resolved'],
];
const REVIEWER_ANYWHERE: ReadonlyArray<[RegExp, ReviewerMark]> = [
  [
    /\b(?:not (?:yet )?(?:resolved|fixed|addressed)|unresolved|still open|re-?open|still (?:missing|wrong|broken|not))\b/,
    'open',
  ],
  // "not fully resolved", "only partly fixed", "I do not consider this resolved", "says it is fixed, but it is not":
  // a qualified or denied "resolved" keeps the entry open.
  [
    /\b(?:not|n't|never|partly|partially|only|hardly|barely)\b(?:\W+\w+){0,4}?\W+(?:resolved|fixed|addressed)\b/,
    'open',
  ],
  [/\bbut (?:it|this|that)(?: still)? (?:is|was|has|does)(?:n't| not)\b/, 'open'],
  [/\bwithdraw/, 'withdrawn'],
  [/\b(?:resolved|fixed)\b/, 'resolved'],
];

/** The mark the text after an id gives: its leading word first, else a telling phrase in it. */
function classify<M>(rest: string, lead: ReadonlyArray<[RegExp, M]>, anywhere: ReadonlyArray<[RegExp, M]>): M | null {
  const lower = plain(rest).toLowerCase();
  for (const [re, mark] of lead) if (re.test(lower)) return mark;
  for (const [re, mark] of anywhere) if (re.test(lower)) return mark;
  return null;
}

/** The markers the prompts ask for; after one of them comes the note itself. */
const CANONICAL_RE = /^(?:resolved|withdrawn|open|addressed|disputed)\b[\s)\]:.,;—–-]*/i;

/** The note or answer after the marker ("disputed — the file is right" → "the file is right"; "" after a bare
 * marker), else the whole text. */
function noteOf(rest: string): string {
  const text = plain(rest);
  const m = CANONICAL_RE.exec(text);
  return clip(m ? text.slice(m[0].length) : text);
}

export interface ParsedReview {
  /** The reviewer's word on earlier entries, by id. */
  marks: Map<string, { mark: ReviewerMark; note: string }>;
  /** New comments: their number in the reviewer's list and their text ("None." is no comment). */
  comments: Array<{ number: number; text: string }>;
}

const COMMENTS_HEADING_RE = /comment|remark|issue|finding|problem/;
const LEDGER_HEADING_RE = /ledger|earlier|previous|status/;

/** The reviewer's answer read against the live entries' ids. */
export function parseReview(text: string, liveIds: readonly string[]): ParsedReview {
  const known = new Set(liveIds.map((i) => i.toUpperCase()));
  const marks = new Map<string, { mark: ReviewerMark; note: string }>();
  for (const { id, rest } of idLines(text, known)) {
    const mark = classify(rest, REVIEWER_LEAD, REVIEWER_ANYWHERE);
    if (mark && !marks.has(id)) marks.set(id, { mark, note: noteOf(rest) });
  }
  const all = sections(text);
  const named = all.filter((s) => s.heading !== null && COMMENTS_HEADING_RE.test(s.heading));
  // No "## Comments" heading: the numbered items of the answer, outside a ledger section, are its comments.
  const where = named.length ? named : all.filter((s) => s.heading === null || !LEDGER_HEADING_RE.test(s.heading));
  const comments: Array<{ number: number; text: string }> = [];
  for (const s of where) {
    for (const it of items(s.lines)) {
      if (!named.length && it.number === null) continue;
      if (leadingId(it.text, known) || /^\*{0,2}L\d+\b/i.test(it.text)) continue;
      const body = normalizeMarkerLine(it.text);
      if (!body || NONE_RE.test(body)) continue;
      comments.push({ number: it.number ?? comments.length + 1, text: clip(body) });
    }
  }
  return { marks, comments: comments.slice(0, MAX_COMMENTS) };
}

const RESPONSES_HEADING_RE = /respon|repl(?:y|ies)|answers?\b|review/;

const PLANNER_LEAD: ReadonlyArray<[RegExp, PlannerMark]> = [
  [
    /^(?:disputed?|disagreed?|declined?|rejected|not (?:changed|applied|done)|unchanged|kept|keep|won't|will not|no)\b/,
    'disputed',
  ],
  [/^(?:addressed|fixed|done|changed|applied|accepted|agreed?|yes|implemented|updated|added|resolved)\b/, 'addressed'],
];
const PLANNER_ANYWHERE: ReadonlyArray<[RegExp, PlannerMark]> = [
  [
    /\b(?:disagree|disputed?|declined?|not changed|did not change|didn't change|won't|will not|kept as is|no change|keeping it|keep it as is|leaving it)\b/,
    'disputed',
  ],
];

export interface ParsedResponses {
  /** The planner's answer per entry id. */
  answers: Map<string, { mark: PlannerMark; answer: string }>;
}

/**
 * The planner's answers: the lines that start with a live entry's id anywhere in its answer, and inside its
 * "Responses to review" section also the items numbered like the latest review's comments (`byNumber`). An answer
 * with no marker counts as addressed unless it says it disagrees; an entry with no answer is not in the map.
 */
export function parseResponses(
  text: string,
  liveIds: readonly string[],
  byNumber: (n: number) => string | null,
): ParsedResponses {
  const known = new Set(liveIds.map((i) => i.toUpperCase()));
  const answers = new Map<string, { mark: PlannerMark; answer: string }>();
  const put = (id: string, rest: string): void => {
    if (answers.has(id)) return;
    const mark = classify(rest, PLANNER_LEAD, PLANNER_ANYWHERE) ?? 'addressed';
    answers.set(id, { mark, answer: noteOf(rest) });
  };
  for (const s of sections(text)) {
    if (s.heading === null || !RESPONSES_HEADING_RE.test(s.heading)) continue;
    for (const it of items(s.lines)) {
      const hit = leadingId(it.text, known);
      if (hit) put(hit.id, hit.rest);
      else if (it.number !== null) {
        const id = byNumber(it.number);
        if (id && known.has(id)) put(id, it.text);
      }
    }
  }
  for (const { id, rest } of idLines(text, known)) put(id, rest);
  return { answers };
}
