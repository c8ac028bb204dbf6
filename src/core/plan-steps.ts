// Steps of plan.md: reading the `## Steps` list, ticking a step off, and commit summaries.
import type { StepInfo } from './types.js';

const FRONTMATTER_RE = /^\uFEFF?---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/;
const STEPS_HEADING_RE = /^##[ \t]+(?:steps\b|步骤).*$/i;
const SECTION_END_RE = /^#{1,2}[ \t]/;
const FENCE_RE = /^[ \t]*(```|~~~)/;
/** A top-level item: `1. [ ] x`, `2) [x] x`, `- [ ] x`, `* [X] x`, or a numbered item without a box `3. x`. */
const ITEM_RE = /^ ?(?:(\d+)[.)]|([-*+]))[ \t]+(?:\[([ xX-])\][ \t]*)?(.*)$/;
const COMMIT_RE = /[ \t]*\(commit ([0-9a-fA-F]{4,40})\)[ \t]*$/;

interface ItemLine {
  /** Index into the plan's lines. */
  index: number;
  /** The item's text after its marker and box. */
  start: number;
  /** `-` marks a step the person skipped. */
  box: ' ' | 'x' | 'X' | '-' | null;
  rest: string;
}

function splitLines(text: string): string[] {
  return text.split('\n');
}

/** Finds the step items of the `## Steps` section, in order. Lines keep a trailing `\r` if any. */
function findItems(lines: string[]): ItemLine[] {
  let i = 0;
  const fm = FRONTMATTER_RE.exec(lines.join('\n'));
  if (fm) i = fm[0].split('\n').length - (fm[0].endsWith('\n') ? 1 : 0);
  const items: ItemLine[] = [];
  let inSteps = false;
  let inFence = false;
  for (; i < lines.length; i++) {
    const line = (lines[i] ?? '').replace(/\r$/, '');
    if (FENCE_RE.test(line)) inFence = !inFence;
    if (inFence || FENCE_RE.test(line)) continue;
    if (STEPS_HEADING_RE.test(line)) {
      inSteps = true;
      continue;
    }
    if (SECTION_END_RE.test(line)) {
      if (inSteps) break;
      continue;
    }
    if (!inSteps) continue;
    const m = ITEM_RE.exec(line);
    if (!m) continue;
    const box = (m[3] as ItemLine['box'] | undefined) ?? null;
    if (box === null && m[2]) continue; // a plain bullet without a box is a note, not a step
    const rest = m[4] ?? '';
    items.push({ index: i, start: line.length - rest.length, box, rest });
  }
  return items;
}

/** The steps listed under `## Steps`, numbered by position (1-based). */
export function parseSteps(planMarkdown: string): StepInfo[] {
  return findItems(splitLines(planMarkdown)).map((item, k) => {
    const c = COMMIT_RE.exec(item.rest);
    const title = (c ? item.rest.slice(0, c.index) : item.rest).trim();
    const step: StepInfo = {
      n: k + 1,
      title,
      done: item.box === 'x' || item.box === 'X',
      commit: c ? (c[1] ?? null) : null,
    };
    return item.box === '-' ? { ...step, skipped: true } : step;
  });
}

/** Rewrites step `n`'s line as `<marker> [box] <rest>`; only that line changes. Unchanged text when there is no step `n`. */
function rewriteStep(planMarkdown: string, n: number, box: 'x' | '-', rest: (current: string) => string): string {
  const lines = splitLines(planMarkdown);
  const item = findItems(lines)[n - 1];
  if (!item) return planMarkdown;
  const raw = lines[item.index] ?? '';
  const cr = raw.endsWith('\r') ? '\r' : '';
  const line = cr ? raw.slice(0, -1) : raw;
  const marker = line
    .slice(0, item.start)
    .replace(/\[[ xX-]\][ \t]*$/, '')
    .replace(/[ \t]*$/, '');
  lines[item.index] = `${marker} [${box}] ${rest(item.rest.replace(/[ \t]+$/, ''))}${cr}`;
  return lines.join('\n');
}

const ROUND_MARK_RE = /\(from code review, round \d+\)$/;

/**
 * Appends `titles` as open steps at the end of the `## Steps` section (after its last item and that item's lines), so
 * they are numbered after the steps there; a plan without that section gets one at its end. Open steps already marked
 * as from the same code review round are replaced: a round replayed after a crash does not add its steps twice.
 */
export function appendSteps(planMarkdown: string, titles: readonly string[]): string {
  const marks = new Set(titles.map((t) => ROUND_MARK_RE.exec(t.trim())?.[0]).filter((m) => m !== undefined));
  const all = splitLines(planMarkdown);
  const replayed = new Set(
    findItems(all)
      .filter((it) => it.box === ' ' && marks.has(ROUND_MARK_RE.exec(it.rest.trim())?.[0] ?? ''))
      .map((it) => it.index),
  );
  const lines = all.filter((_, i) => !replayed.has(i));
  const items = findItems(lines);
  const cr = (lines[0] ?? '').endsWith('\r') ? '\r' : '';
  const added = titles.map((t, i) => `${items.length + i + 1}. [ ] ${t.replace(/\s+/g, ' ').trim()}${cr}`);
  const last = items[items.length - 1];
  if (!last) {
    const body = planMarkdown.replace(/\s+$/, '');
    return `${body}${body ? `\n\n` : ''}## Steps\n${added.join('\n')}\n`;
  }
  // The last item's own lines (indented, or wrapped) end at a blank line, a heading, or the end of the text.
  let end = last.index + 1;
  while (end < lines.length) {
    const line = (lines[end] ?? '').replace(/\r$/, '');
    if (line.trim() === '' || SECTION_END_RE.test(line) || ITEM_RE.test(line) || FENCE_RE.test(line)) break;
    end++;
  }
  lines.splice(end, 0, ...added);
  return lines.join('\n');
}

/** Marks step `n` as skipped by the person (`[-]`); only that line changes. */
export function markStepSkipped(planMarkdown: string, n: number): string {
  return rewriteStep(planMarkdown, n, '-', (rest) => rest);
}

/**
 * Ticks step `n` (`[x]`) and, when `commit` is given, sets its ` (commit abc1234)` suffix.
 * Only that line changes; idempotent. Returns the text unchanged when there is no step `n`.
 */
export function markStepDone(planMarkdown: string, n: number, commit: string | null): string {
  return rewriteStep(planMarkdown, n, 'x', (rest) =>
    commit ? `${rest.replace(COMMIT_RE, '')} (commit ${commit.trim().slice(0, 7)})` : rest,
  );
}

const MAX_SUMMARY = 60;

function cleanLine(line: string): string {
  let s = line.trim().replace(/^(?:#+|>|[-*+])\s+/, '');
  for (;;) {
    const m = /^(\*\*|__|`|\*|_)([\s\S]+)\1$/.exec(s);
    if (!m) break;
    s = (m[2] ?? '').trim();
  }
  return s.replace(/\s+/g, ' ').trim();
}

/** Cuts `s` to at most `max` characters at a word boundary, ending with `…`. */
export function truncateAtWord(s: string, max = MAX_SUMMARY): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  const base = space >= max / 3 ? cut.slice(0, space) : cut;
  return `${base.replace(/[\s,;:.—–-]+$/, '')}…`;
}

/**
 * One line (≤ 60 chars) for the `[Step N] <summary>` commit message: the content of the answer's
 * last `Summary:` line, else its first non-empty line, else `fallbackTitle`.
 */
export function summarizeStepAnswer(text: string, fallbackTitle: string): string {
  const lines = text.split(/\r?\n/).map(cleanLine);
  let summary = '';
  for (const line of lines) {
    const m = /^(?:\*\*|__)?summary(?:\*\*|__)?\s*[:：]\s*(?:\*\*|__)?\s*(.*)$/i.exec(line);
    if (m && cleanLine(m[1] ?? '') !== '') summary = cleanLine(m[1] ?? '');
  }
  if (!summary) summary = lines.find((l) => l !== '') ?? '';
  if (!summary) summary = cleanLine(fallbackTitle);
  return truncateAtWord(summary);
}

/** Git's advice for a commit subject line. */
const MAX_SUBJECT = 72;

/** The `[Step N] <summary>` subject of a step commit, on one line and cut to fit. */
export function stepSubject(step: number, summary: string): string {
  const prefix = `[Step ${step}] `;
  const oneLine = summary.replace(/\s+/g, ' ').trim() || `step ${step}`;
  const room = MAX_SUBJECT - prefix.length;
  return prefix + (oneLine.length <= room ? oneLine : `${oneLine.slice(0, room - 1).trimEnd()}…`);
}
