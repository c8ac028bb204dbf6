// The Diff tab (issue 20): each committed step's patch, and the diff the code reviewer read last, one at a time
// (`[` / `]` choose). A file list (path, lines added and removed), then the hunks: added lines green, removed red,
// hunk headers cyan, file headers bold. Without colours the +/- prefixes say it. Only the window is laid out.
import { diffFileStats, diffLineKind, type CommitDiff, type DiffLineKind } from '../../core/commit-diff.js';
import type { ChangedFile, ReportCommit } from '../../core/run-report.js';
import type { WorkflowState } from '../../core/types.js';
import type { LineSource } from '../line-source.js';
import { truncate, type Line } from '../lines.js';

/** One patch the tab can show. */
export interface DiffChoice {
  key: string;
  label: string;
  /** The step commit to read; null: the code review's diff, already in the state. */
  commit: string | null;
  title: string;
}

/** Files listed above the patch at most (a commit of 10 000 files still draws a short list). */
export const MAX_LISTED_FILES = 200;

const STEP_SUBJECT = /^\[Step (\d+)\]\s*(.*)$/;

/**
 * The run's step commits in order, then the code review's last diff when there is one. `runCommits` (oldest first,
 * found in git by the run's trailer) also holds the steps of a plan the run was stopped on and then left; the
 * state's own steps come after any it does not list.
 */
export function diffChoices(state: WorkflowState, runCommits: readonly ReportCommit[] = []): DiffChoice[] {
  const fromGit: DiffChoice[] = runCommits.map((c) => {
    const m = STEP_SUBJECT.exec(c.subject);
    return { key: c.hash, label: `step ${m?.[1] ?? '?'}`, commit: c.hash, title: m?.[2] ?? c.subject };
  });
  const known = new Set(fromGit.map((c) => c.key));
  const fromState: DiffChoice[] = state.steps
    .filter((s) => typeof s.commit === 'string' && s.commit !== '' && !known.has(s.commit))
    .map((s) => ({ key: s.commit as string, label: `step ${s.n}`, commit: s.commit as string, title: s.title }));
  const out = [...fromGit, ...fromState];
  const cr = state.codeReview;
  if (cr?.diff)
    out.push({
      key: 'review',
      label: 'code review',
      commit: null,
      title:
        cr.mode === 'final'
          ? "the run's changes, as the code reviewer read them last"
          : `step ${cr.step ?? '?'} before its commit, as the code reviewer read it last`,
    });
  return out;
}

/** The choice shown: the one picked, else (none picked, or it is gone) the newest. */
export function chosen(choices: readonly DiffChoice[], key: string | null): number {
  const at = key === null ? -1 : choices.findIndex((c) => c.key === key);
  return at >= 0 ? at : choices.length - 1;
}

const KIND_STYLE: Record<DiffLineKind, Omit<Line, 'key' | 'text'>> = {
  file: { bold: true },
  meta: { dim: true },
  hunk: { color: 'cyan', dim: true },
  add: { color: 'green' },
  del: { color: 'red' },
  context: {},
  note: { dim: true },
};

interface ParsedPatch {
  text: string;
  lines: string[];
  kinds: DiffLineKind[];
}

// The last patch split into lines: a frame only slices it (a 1 MiB patch is split once, not per frame).
let lastParsed: ParsedPatch | null = null;

function parsed(patch: string): ParsedPatch {
  if (lastParsed?.text === patch) return lastParsed;
  const lines = patch.replace(/\n$/, '').split('\n');
  const kinds: DiffLineKind[] = [];
  let inHunk = false;
  for (const l of lines) {
    const kind = diffLineKind(l, inHunk);
    if (kind === 'hunk') inHunk = true;
    else if (kind === 'file') inHunk = false;
    kinds.push(kind);
  }
  lastParsed = { text: patch, lines, kinds };
  return lastParsed;
}

/** A bounded diff's lines, styled as in the Diff tab (the Code tab's diff under review), cut at the edge. */
export function patchLines(patch: string, width: number, prefix: string): Line[] {
  const p = parsed(patch);
  return p.lines.map((l, i) => ({
    key: `${prefix}${i}`,
    text: truncate(l.replace(/\t/g, '  '), width),
    ...KIND_STYLE[p.kinds[i] ?? 'context'],
  }));
}

const LETTER: Record<ChangedFile['change'], string> = { added: 'A', modified: 'M', deleted: 'D' };

function count(n: number | null): string {
  return n === null ? 'bin' : String(n);
}

export function fileListLines(files: readonly ChangedFile[], width: number): Line[] {
  const added = files.reduce((n, f) => n + (f.added ?? 0), 0);
  const removed = files.reduce((n, f) => n + (f.removed ?? 0), 0);
  const out: Line[] = [
    { key: 'df-head', text: truncate(`${files.length} file(s) changed, +${added} -${removed}`, width), bold: true },
  ];
  const shown = files.slice(0, MAX_LISTED_FILES);
  const pathWidth = Math.min(60, Math.max(10, ...shown.map((f) => f.path.length)));
  shown.forEach((f, i) =>
    out.push({
      key: `df${i}`,
      text: truncate(
        `  ${LETTER[f.change]} ${f.path.padEnd(pathWidth)}  +${count(f.added)} -${count(f.removed)}`,
        width,
      ),
      color: f.change === 'added' ? 'green' : f.change === 'deleted' ? 'red' : undefined,
    }),
  );
  if (files.length > shown.length)
    out.push({ key: 'df-more', text: `  … and ${files.length - shown.length} more file(s)`, dim: true });
  return out;
}

/** The chooser line: every patch, the shown one in brackets. */
function chooserLine(choices: readonly DiffChoice[], at: number, width: number): Line {
  const names = choices.map((c, i) => (i === at ? `[${c.label}]` : c.label)).join('  ');
  return { key: 'd-choose', text: truncate(`[ / ] choose: ${names}`, width), dim: true };
}

export type DiffLoad = { status: 'loading' } | { status: 'missing' } | { status: 'loaded'; diff: CommitDiff };

/** The tab's lines: what is shown, the chooser, the file list, then the patch (laid out a window at a time). */
export function diffTab(
  state: WorkflowState,
  choices: readonly DiffChoice[],
  at: number,
  load: DiffLoad,
  width: number,
): LineSource {
  const choice = choices[at];
  if (!choice)
    return [
      {
        key: 'd-empty',
        text: truncate('No step committed yet: each step’s patch shows here once it is committed.', width),
        dim: true,
      },
    ];
  const what = choice.commit
    ? `Step ${choice.label.replace(/^step /, '')} · ${choice.commit.slice(0, 7)} · ${choice.title}`
    : `Code review: ${choice.title}`;
  const head: Line[] = [
    { key: 'd-what', text: truncate(what, width), bold: true },
    chooserLine(choices, at, width),
    { key: 'd-gap', text: '' },
  ];
  const diff: CommitDiff | null = choice.commit
    ? load.status === 'loaded'
      ? load.diff
      : null
    : { files: diffFileStats(state.codeReview?.diff ?? ''), patch: state.codeReview?.diff ?? '', truncated: false };
  if (!diff) {
    const text =
      load.status === 'loading'
        ? 'Reading the commit…'
        : `Commit ${choice.commit?.slice(0, 7) ?? ''} cannot be read (not in this repository any more?).`;
    return [...head, { key: 'd-status', text: truncate(text, width), dim: true }];
  }
  const top: Line[] = [...head, ...fileListLines(diff.files, width), { key: 'd-gap2', text: '' }];
  const patch = parsed(diff.patch);
  const tail: Line[] = diff.truncated
    ? [
        {
          key: 'd-cut',
          text: truncate(`[… the patch is cut here: \`git show ${choice.commit ?? ''}\` shows all of it]`, width),
          dim: true,
        },
      ]
    : [];
  const patchCount = diff.patch === '' ? 0 : patch.lines.length;
  const total = top.length + patchCount + tail.length;
  return {
    length: total,
    slice(start: number, end: number): Line[] {
      const out: Line[] = [];
      for (let n = Math.max(0, start); n < Math.min(total, end); n++) {
        if (n < top.length) out.push(top[n] as Line);
        else if (n < top.length + patchCount) {
          const i = n - top.length;
          const text = (patch.lines[i] ?? '').replace(/\t/g, '  ');
          out.push({ key: `dp${i}`, text: truncate(text, width), ...KIND_STYLE[patch.kinds[i] ?? 'context'] });
        } else out.push(tail[n - top.length - patchCount] as Line);
      }
      return out;
    },
  };
}
