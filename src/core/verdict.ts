// Reads the reviewer's verdict from the first line of its answer (spec: "达成一致的判定").
// Approval must be explicit and exact; anything that merely looks like a verdict is re-asked.

export type ParsedVerdict =
  { kind: 'approved' } | { kind: 'changes_required'; marker: boolean } | { kind: 'unparseable'; reason: string };

const FRONTMATTER_RE = /^---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/;
const FENCE_RE = /^(`{3,}|~{3,})[^\n]*\r?\n([\s\S]*?)\r?\n?\1[ \t]*$/;

/** Removes a leading YAML frontmatter block and a fence around the whole answer, in any order. */
export function stripAnswerWrapping(text: string): string {
  let t = text.replace(/^\uFEFF/, '').trim();
  for (let i = 0; i < 4; i++) {
    const before = t;
    t = t.replace(FRONTMATTER_RE, '').trim();
    const fence = FENCE_RE.exec(t);
    if (fence) t = (fence[2] ?? '').trim();
    if (t === before) break;
  }
  return t;
}

/** Trims a line and removes leading `#`s and emphasis (`**`, `__`, `` ` ``) wrapped around it. */
export function normalizeMarkerLine(line: string): string {
  let s = line.trim().replace(/^#+\s*/, '');
  for (;;) {
    const m = /^(\*\*|__|`)([\s\S]*)\1$/.exec(s);
    if (!m) return s;
    s = (m[2] ?? '').trim();
  }
}

const KEYWORD_RE = /approv|changes?[\s_-]*required|reject|lgtm/i;
const LABEL_RE = /^(verdict|status|decision|result|review(?:\s+result)?)\s*[:：=-]/i;
const LEADING_KEYWORD_RE = /^\W*(approved?|changes?[\s_-]*required|rejected|lgtm)\b/i;
const LATER_APPROVAL_RE = /\[\s*approved?\s*\]/i;

/** A first line that tries to be a marker and fails, e.g. `APPROVED`, `[Approved]`, `Verdict: APPROVED`. */
function looksLikeMarker(line: string): boolean {
  if (/[[\]]/.test(line) && KEYWORD_RE.test(line)) return true;
  if (LABEL_RE.test(line)) return true;
  return LEADING_KEYWORD_RE.test(line);
}

export function parseVerdict(text: string): ParsedVerdict {
  const body = stripAnswerWrapping(text);
  if (body === '') return { kind: 'unparseable', reason: 'the answer is empty' };
  const lines = body.split(/\r?\n/);
  const first = normalizeMarkerLine(lines.find((l) => l.trim() !== '') ?? '');

  const firstIndex = lines.findIndex((l) => l.trim() !== '');
  const later = lines.slice(firstIndex + 1);
  if (first === '[APPROVED]') return contradicted('approved', later) ?? { kind: 'approved' };
  if (first === '[CHANGES_REQUIRED]')
    return contradicted('changes', later) ?? { kind: 'changes_required', marker: true };
  // `[CHANGES_REQUIRED] see below`: still a clear request for changes, unless approval is also mentioned.
  const rest = first.startsWith('[CHANGES_REQUIRED]') ? first.slice('[CHANGES_REQUIRED]'.length) : null;
  if (rest !== null && /^[\s:.,;—–-]/.test(rest) && !/approv|lgtm/i.test(rest)) {
    return contradicted('changes', later) ?? { kind: 'changes_required', marker: true };
  }
  if (looksLikeMarker(first)) {
    return {
      kind: 'unparseable',
      reason: `the first line "${first.slice(0, 80)}" is not exactly [APPROVED] or [CHANGES_REQUIRED]`,
    };
  }
  if (later.some((l) => LATER_APPROVAL_RE.test(l))) {
    return { kind: 'unparseable', reason: 'the first line has no marker but a later line contains [APPROVED]' };
  }
  return { kind: 'changes_required', marker: false };
}

/** How many non-empty lines after the marker line are read for a second, different verdict. */
const VERDICT_WINDOW = 5;
const APPROVED_MENTION_RE = /\[\s*approved?\s*\]|^\W*(approved?|lgtm)\b/i;
const CHANGES_MENTION_RE = /\[\s*changes?[\s_-]*required\s*\]|^\W*(changes?[\s_-]*required|rejected)\b/i;

/**
 * An answer that starts with one verdict and gives the other one too is unclear, never approved: `[APPROVED]` on
 * line 1 and `[CHANGES_REQUIRED]` on line 2 may be a template the reviewer half filled in. The other verdict counts
 * in any spelling within the first lines after the marker, and as an exact marker line anywhere.
 */
function contradicted(said: 'approved' | 'changes', later: readonly string[]): ParsedVerdict | null {
  const other = said === 'approved' ? CHANGES_MENTION_RE : APPROVED_MENTION_RE;
  const exact = said === 'approved' ? '[CHANGES_REQUIRED]' : '[APPROVED]';
  const nonEmpty = later.filter((l) => l.trim() !== '');
  const hit =
    nonEmpty.slice(0, VERDICT_WINDOW).find((l) => other.test(normalizeMarkerLine(l))) ??
    nonEmpty.find((l) => normalizeMarkerLine(l).startsWith(exact));
  if (hit === undefined) return null;
  return {
    kind: 'unparseable',
    reason: `the answer starts with ${said === 'approved' ? '[APPROVED]' : '[CHANGES_REQUIRED]'} but also says "${normalizeMarkerLine(hit).slice(0, 80)}": two different verdicts`,
  };
}
