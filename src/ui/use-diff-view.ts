// The Diff tab's state: which patch is shown (`[` / `]`) and the step commits' patches, read through the files
// port (git is read in adapters) only while the tab is shown, a few kept: a commit's patch never changes.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { CommitDiff } from '../core/commit-diff.js';
import type { ReportCommit } from '../core/run-report.js';
import type { WorkflowState } from '../core/types.js';
import type { LineSource } from './line-source.js';
import type { FilesReader } from './ports.js';
import { chosen, diffChoices, diffTab, type DiffLoad } from './tabs/diff-tab.js';

/** Patches kept in memory (each up to adapters/git/commit-diff.ts MAX_COMMIT_DIFF_BYTES). */
const KEPT = 4;

const NONE: LineSource = [];

function loadOf(
  cache: ReadonlyMap<string, CommitDiff | null>,
  failed: ReadonlySet<string>,
  commit: string | null,
): DiffLoad {
  if (commit !== null && failed.has(commit)) return { status: 'missing' };
  if (commit === null || !cache.has(commit)) return { status: commit === null ? 'missing' : 'loading' };
  const diff = cache.get(commit);
  return diff ? { status: 'loaded', diff } : { status: 'missing' };
}

export interface DiffView {
  lines: LineSource;
  /** Shows the previous (-1) or next (1) patch; false when there is none that way. */
  step(by: 1 | -1): boolean;
}

export function useDiffView(state: WorkflowState, files: FilesReader, width: number, active: boolean): DiffView {
  const [picked, setPicked] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(0);
  const cache = useRef(new Map<string, CommitDiff | null>());
  const reading = useRef(new Set<string>());
  /** Reads that failed: shown as missing, read again when the person comes back to them. */
  const failed = useRef(new Set<string>());
  /** The patch on screen now: never the one evicted, whatever order the reads finish in. */
  const shown = useRef<string | null>(null);
  const [runCommits, setRunCommits] = useState<readonly ReportCommit[]>([]);
  // Read again when a step is committed (or another run starts): git then has one more of the run's commits.
  const committed = `${state.runId} ${state.steps.map((s) => s.commit ?? '').join(' ')}`;
  useEffect(() => {
    if (!active || !files.readRunCommits) return undefined;
    let current = true;
    void files
      .readRunCommits(state.runId)
      .catch(() => null)
      .then((commits) => {
        if (current) setRunCommits(commits ?? []);
      });
    return () => {
      current = false;
    };
    // `committed` says when the run's commits may have changed; the state's other changes do not matter here.
  }, [active, files, committed, state.runId]);
  const choices = useMemo(() => diffChoices(state, runCommits), [state, runCommits]);
  const at = chosen(choices, picked);
  const commit = choices[at]?.commit ?? null;

  shown.current = commit;
  useEffect(() => {
    if (commit !== null) failed.current.delete(commit);
    if (!active || commit === null || cache.current.has(commit) || reading.current.has(commit)) return;
    if (!files.readCommitDiff) {
      cache.current.set(commit, null);
      setLoaded((n) => n + 1);
      return;
    }
    reading.current.add(commit);
    void files
      .readCommitDiff(commit)
      .then(
        (diff) => {
          const kept = cache.current;
          kept.set(commit, diff);
          // The oldest read goes first once more than KEPT are held, but never the one on screen.
          for (const old of [...kept.keys()]) {
            if (kept.size <= KEPT) break;
            if (old !== shown.current) kept.delete(old);
          }
        },
        () => failed.current.add(commit),
      )
      .finally(() => {
        reading.current.delete(commit);
        setLoaded((n) => n + 1);
      });
  }, [active, commit, files]);

  // Laid out again only when what it shows changed (`loaded` counts the reads that finished).
  const lines = useMemo(
    () => (active ? diffTab(state, choices, at, loadOf(cache.current, failed.current, commit), width) : NONE),
    [active, state, choices, at, commit, width, loaded],
  );
  return {
    lines,
    step: (by) => {
      const next = choices[at + by];
      if (!next) return false;
      setPicked(next.key);
      return true;
    },
  };
}
