// A patch as the Diff tab shows it (issue 20): the files it changes with their lines added and removed, and each
// line's part (file header, hunk header, added, removed, context). Pure; git is read in adapters/git/commit-diff.ts.
import type { ChangedFile } from './run-report.js';

/** One step commit's patch (or another diff), read up to a cap. */
export interface CommitDiff {
  /** Every file the commit changes (outside agent-collab's work dir), with exact line counts (null: binary). */
  files: ChangedFile[];
  /** `git diff` text, cut at the cap when `truncated`. */
  patch: string;
  truncated: boolean;
}

export type DiffLineKind = 'file' | 'meta' | 'hunk' | 'add' | 'del' | 'context' | 'note';

const FILE_RE = /^diff --git a\/(.*?) b\/(.*)$/;

/** What a line of a unified diff is, given whether it is inside a hunk. */
export function diffLineKind(line: string, inHunk: boolean): DiffLineKind {
  if (line.startsWith('diff --git ')) return 'file';
  if (line.startsWith('@@')) return 'hunk';
  if (!inHunk) return 'meta';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  if (line.startsWith('[…') || line.startsWith('\\')) return 'note';
  return 'context';
}

/** The files of a diff text with their lines added and removed, counted from its hunks (a cut diff: what is shown). */
export function diffFileStats(patch: string): ChangedFile[] {
  const files: ChangedFile[] = [];
  let current: ChangedFile | null = null;
  let inHunk = false;
  for (const line of patch.split('\n')) {
    const kind = diffLineKind(line, inHunk);
    if (kind === 'file') {
      const m = FILE_RE.exec(line);
      current = { path: m?.[2] ?? line.slice(11), change: 'modified', added: 0, removed: 0 };
      files.push(current);
      inHunk = false;
      continue;
    }
    if (!current) continue;
    if (kind === 'hunk') inHunk = true;
    else if (kind === 'meta') {
      if (line.startsWith('new file mode')) current.change = 'added';
      else if (line.startsWith('deleted file mode')) current.change = 'deleted';
      else if (line.startsWith('Binary files ') || line.startsWith('GIT binary patch'))
        Object.assign(current, { added: null, removed: null });
    } else if (kind === 'add' && current.added !== null) current.added++;
    else if (kind === 'del' && current.removed !== null) current.removed++;
  }
  return files;
}
