// The diff a code reviewer is given, bounded: a large diff is cut per file, keeping each file's header and its
// biggest hunks, and the files or hunks left out are listed, so the reviewer knows what it has not seen.

export interface BoundedDiff {
  text: string;
  /** Every file the diff changes, shown or not. */
  files: string[];
  /** True when something was left out. */
  cut: boolean;
}

interface FileDiff {
  path: string;
  /** The lines before the first hunk (`diff --git`, index, ---/+++), joined. */
  header: string;
  hunks: string[];
  binary: boolean;
  size: number;
}

/** Files left out are named up to this many; the rest are counted (the list must stay within the bound too). */
const MAX_LISTED = 200;

const FILE_RE = /^diff --git a\/(.*?) b\/(.*)$/;

function splitFiles(patch: string): FileDiff[] {
  const sections: string[][] = [];
  for (const line of patch.split('\n')) {
    if (line.startsWith('diff --git ') || sections.length === 0) sections.push([line]);
    else sections[sections.length - 1]?.push(line);
  }
  return sections
    .map((lines) => {
      while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
      const m = FILE_RE.exec(lines[0] ?? '');
      const first = lines.findIndex((l) => l.startsWith('@@'));
      const binaryAt = lines.findIndex((l) => l.startsWith('GIT binary patch') || l.startsWith('Binary files '));
      const binary = binaryAt >= 0;
      const headerLines = binary ? lines.slice(0, binaryAt) : first < 0 ? lines : lines.slice(0, first);
      const hunks: string[] = [];
      if (!binary && first >= 0) {
        for (const line of lines.slice(first)) {
          if (line.startsWith('@@')) hunks.push(line);
          else hunks[hunks.length - 1] += `\n${line}`;
        }
      }
      const header = headerLines.join('\n');
      return {
        path: m?.[2] ?? m?.[1] ?? (lines[0] ?? '').slice(0, 80),
        header,
        hunks,
        binary,
        size: header.length + 1 + hunks.reduce((n, h) => n + h.length + 1, 0),
      };
    })
    .filter((f) => f.header.trim() !== '' || f.hunks.length > 0);
}

function countLines(hunks: string[]): string {
  let add = 0;
  let del = 0;
  for (const h of hunks)
    for (const l of h.split('\n').slice(1)) {
      if (l.startsWith('+')) add++;
      else if (l.startsWith('-')) del++;
    }
  return `+${add} -${del}`;
}

/** The first lines of a hunk within `max` characters, and how many were left out. */
function cutHunk(hunk: string, max: number): string {
  const lines = hunk.split('\n');
  let size = 0;
  let n = 0;
  while (n < lines.length && size + (lines[n]?.length ?? 0) + 1 <= max) size += (lines[n++]?.length ?? 0) + 1;
  return [
    ...lines.slice(0, Math.max(n, 1)),
    `[… ${lines.length - Math.max(n, 1)} more line(s) of this hunk not shown]`,
  ].join('\n');
}

/** A file's header and as many of its biggest hunks as fit in `budget` characters, in their order in the file. */
function cutFile(f: FileDiff, budget: number): string {
  if (f.binary) return `${f.header}\n[binary change, not shown]`;
  const bySize = f.hunks.map((h, i) => ({ h, i })).sort((a, b) => b.h.length - a.h.length);
  let room = budget - f.header.length - 1;
  const kept = new Set<number>();
  const cutHunks = new Map<number, string>();
  for (const { h, i } of bySize) {
    if (h.length + 1 <= room) {
      kept.add(i);
      room -= h.length + 1;
    } else if (kept.size === 0 && room > 200) {
      // The biggest hunk alone is over the share: its head is shown rather than nothing of the file.
      const head = cutHunk(h, room - 60);
      cutHunks.set(i, head);
      kept.add(i);
      room -= head.length + 1;
    }
  }
  const shown = f.hunks.flatMap((h, i) => (kept.has(i) ? [cutHunks.get(i) ?? h] : []));
  const left = f.hunks.filter((_, i) => !kept.has(i));
  const note = left.length
    ? [`[… ${left.length} smaller hunk(s) of ${f.path} not shown (${countLines(left)} lines)]`]
    : [];
  return [f.header, ...shown, ...note].join('\n');
}

/**
 * `patch` (git diff output) within about `max` characters: whole when it fits; else each file gets a fair share
 * (files smaller than their share are kept whole and their room goes to the others), a file over its share keeps
 * its header and biggest hunks, and files that do not fit at all are listed at the end with their line counts.
 */
export function boundDiff(patch: string, max: number): BoundedDiff {
  const files = splitFiles(patch);
  const names = files.map((f) => f.path);
  if (patch.length <= max) return { text: patch, files: names, cut: false };
  const order = files.map((f, i) => ({ f, i })).sort((a, b) => a.f.size - b.f.size);
  const parts = new Map<number, string>();
  const listed: number[] = [];
  let remaining = max;
  order.forEach(({ f, i }, k) => {
    const share = Math.floor(remaining / (order.length - k));
    if (f.size <= share && !f.binary) {
      parts.set(i, [f.header, ...f.hunks].join('\n'));
      remaining -= f.size;
      return;
    }
    const text = f.header.length + 40 <= share ? cutFile(f, share) : null;
    if (text === null) {
      listed.push(i);
      return;
    }
    parts.set(i, text);
    remaining -= text.length + 1;
  });
  const shown = files.flatMap((_, i) => (parts.has(i) ? [parts.get(i) as string] : []));
  const rest = listed
    .sort((a, b) => a - b)
    .map(
      (i) =>
        `- ${files[i]?.path ?? ''} (${files[i]?.binary ? 'binary' : `${countLines(files[i]?.hunks ?? [])} lines`})`,
    );
  const named = rest.slice(0, MAX_LISTED);
  const more = rest.length > named.length ? [`- … and ${rest.length - named.length} more`] : [];
  const tail = rest.length ? [`[… ${rest.length} more changed file(s) not shown:`, ...named, ...more, ']'] : [];
  return { text: [...shown, ...tail].join('\n'), files: names, cut: true };
}
