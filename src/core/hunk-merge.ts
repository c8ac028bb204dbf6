// Puts the agent's hunks, and only them, onto another version of a file (HEAD's for the commit, the index's for
// what stays staged). The agent's hunks are the diff base → now, where base is the working tree before the step
// (the person's edits included); the person's hunks are the diff base → target. Pure: lines in, lines out.

/** One hunk of a zero-context diff, in 0-based line positions. */
export interface Hunk {
  /** Start of the replaced range in the old text (with oldCount 0: the position the new lines go before). */
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
}

/**
 * The hunks of `git diff -U0` output. A header `@@ -s,c +t,d @@` counts lines from 1; with a count of 0 the number
 * is the line the change comes after, which is the 0-based position it goes before.
 */
export function parseZeroContextHunks(diff: string): Hunk[] {
  const hunks: Hunk[] = [];
  for (const m of diff.matchAll(/^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm)) {
    const oldCount = m[2] === undefined ? 1 : Number(m[2]);
    const newCount = m[4] === undefined ? 1 : Number(m[4]);
    const oldLine = Number(m[1]);
    const newLine = Number(m[3]);
    hunks.push({
      oldStart: oldCount === 0 ? oldLine : oldLine - 1,
      oldCount,
      newStart: newCount === 0 ? newLine : newLine - 1,
      newCount,
    });
  }
  return hunks;
}

/** Lines with their terminators kept: joining them gives the text back byte for byte (a last line may lack "\n"). */
export function splitLines(text: string): string[] {
  const lines = text.split('\n').map((l) => `${l}\n`);
  const last = lines.pop() as string; // the piece after the last "\n" (empty when the text ends with one)
  if (last !== '\n') lines.push(last.slice(0, -1));
  return lines;
}

export type MergeResult = { kind: 'merged'; text: string } | { kind: 'overlap' };

function end(h: Hunk): number {
  return h.oldStart + h.oldCount;
}

/**
 * True when the agent's hunk `a` and the person's hunk `p` (both measured on base) touch the same lines, or when
 * nothing tells in which order their lines go (both only insert at one place; or one inserts inside the other's
 * range). Hunks that merely sit next to each other do not overlap.
 */
export function hunksOverlap(a: Hunk, p: Hunk): boolean {
  if (a.oldCount > 0 && p.oldCount > 0) return a.oldStart < end(p) && p.oldStart < end(a);
  if (a.oldCount === 0 && p.oldCount === 0) return a.oldStart === p.oldStart;
  const [ins, range] = a.oldCount === 0 ? [a, p] : [p, a];
  return ins.oldStart > range.oldStart && ins.oldStart < end(range);
}

/**
 * The target with the agent's hunks applied. `agent`: hunks base → now; `person`: hunks base → target. The base lines
 * an agent hunk replaces lie outside every person hunk, so they are the same lines in the target, only shifted by
 * the person's hunks before them.
 */
export function applyAgentHunks(
  now: readonly string[],
  target: readonly string[],
  agent: readonly Hunk[],
  person: readonly Hunk[],
): MergeResult {
  if (agent.some((a) => person.some((p) => hunksOverlap(a, p)))) return { kind: 'overlap' };
  const out: string[] = [];
  let copied = 0; // target lines already copied to `out`
  for (const a of [...agent].sort((x, y) => x.oldStart - y.oldStart)) {
    const shift = person
      .filter((p) => end(p) <= a.oldStart && !(p.oldCount === 0 && p.oldStart === a.oldStart && a.oldCount === 0))
      .reduce((n, p) => n + p.newCount - p.oldCount, 0);
    const at = a.oldStart + shift;
    if (at < copied || at + a.oldCount > target.length) return { kind: 'overlap' };
    out.push(...target.slice(copied, at), ...now.slice(a.newStart, a.newStart + a.newCount));
    copied = at + a.oldCount;
  }
  out.push(...target.slice(copied));
  return { kind: 'merged', text: out.join('') };
}
