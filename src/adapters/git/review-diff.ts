// The diff a code reviewer reads (issue 19): plain text (a binary file is only named), read up to a cap and
// stoppable. The final review reads what the run committed, never the person's own uncommitted edits.
import { firstLine, runGit, RUN_TRAILER, type GitCallOptions } from './git.js';
import type { ReviewChanges } from '../../core/ports.js';

/**
 * Fixed diff shape whatever the person's config says; no --binary: a reviewer reads text. The Diff tab's patches
 * (commit-diff.ts) have the same shape.
 */
export const REVIEW_DIFF_FLAGS = [
  '--no-ext-diff',
  '--no-textconv',
  '--no-color',
  '--no-renames',
  '--src-prefix=a/',
  '--dst-prefix=b/',
];
/** How far back from HEAD the run's step commits are looked for. */
const RUN_COMMIT_SEARCH_DEPTH = 200;

export interface ReviewDiffCall {
  repoRoot: string;
  /** Pathspec of everything but agent-collab's work dir. */
  pathspec: string[];
  signal: AbortSignal;
  maxBytes: number;
}

interface Pair {
  from: string;
  to: string;
}

async function must(c: ReviewDiffCall, args: string[], opts: GitCallOptions, what: string): Promise<string> {
  const r = await runGit(c.repoRoot, args, { ...opts, signal: c.signal });
  if (r.exitCode !== 0) throw new Error(`could not ${what} (git ${args[0]}): ${firstLine(r.stderr || r.stdout)}`);
  return r.stdout;
}

/** The diffs of `pairs` one after the other, their files once each, stdout read up to `maxBytes` in all. */
export async function diffPairs(c: ReviewDiffCall, pairs: Pair[]): Promise<ReviewChanges> {
  const files = new Set<string>();
  const patches: string[] = [];
  let room = c.maxBytes;
  let truncated = false;
  for (const { from, to } of pairs) {
    if (from === to) continue;
    const names = await must(
      c,
      ['diff', '--name-only', '-z', ...REVIEW_DIFF_FLAGS, from, to, '--', ...c.pathspec],
      { maxStdoutBytes: c.maxBytes },
      'list the changed files',
    );
    names
      .split('\0')
      .filter((n) => n.length > 0)
      .forEach((n) => files.add(n));
    if (room <= 0) {
      truncated = true;
      continue;
    }
    const r = await runGit(c.repoRoot, ['diff', ...REVIEW_DIFF_FLAGS, from, to, '--', ...c.pathspec], {
      signal: c.signal,
      maxStdoutBytes: room,
    });
    if (r.exitCode !== 0) throw new Error(`could not diff the changes (git diff): ${firstLine(r.stderr || r.stdout)}`);
    patches.push(r.stdout);
    room -= Buffer.byteLength(r.stdout);
    truncated ||= r.truncated === true;
  }
  return { files: [...files], patch: patches.filter((p) => p.length > 0).join('\n'), truncated };
}

interface LoggedCommit {
  hash: string;
  parent: string | null;
  ofRun: boolean;
}

/**
 * What the run `runId` committed: its `[Step N]` commits on HEAD's first-parent line. When they are the newest
 * commits one after the other, one diff from before the first to HEAD; else (the person committed in between, or
 * after) each step commit's own diff, so nobody else's commit is shown as the run's work.
 */
export async function runCommitsDiff(
  c: ReviewDiffCall,
  runId: string,
  emptyTree: string,
  /** HEAD's tree to the working tree's snapshot, read after the commits (the person's edits for the review). */
  worktree: Pair | null = null,
): Promise<ReviewChanges> {
  const extra = worktree ? [worktree] : [];
  const r = await runGit(
    c.repoRoot,
    [
      'log',
      '--first-parent',
      '--no-show-signature',
      '--no-color',
      '--format=%H%x1f%P%x1f%s%x1f%b%x1e',
      '-n',
      String(RUN_COMMIT_SEARCH_DEPTH),
    ],
    { signal: c.signal },
  );
  if (r.exitCode !== 0) return diffPairs(c, extra); // no commits at all
  const trailer = `${RUN_TRAILER}: ${runId}`;
  const log: LoggedCommit[] = r.stdout
    .split('\x1e')
    .map((rec) => rec.trim().split('\x1f'))
    .filter(([hash]) => Boolean(hash))
    .map(([hash = '', parents = '', subject = '', body = '']) => ({
      hash,
      parent: parents.split(' ').filter(Boolean)[0] ?? null,
      ofRun: subject.startsWith('[Step ') && body.split('\n').some((l) => l.trim() === trailer),
    }));
  const mine = log.filter((l) => l.ofRun);
  const oldest = mine[mine.length - 1];
  if (!oldest) return diffPairs(c, extra);
  const newestFirst = log.slice(0, mine.length);
  if (newestFirst.every((l) => l.ofRun))
    return diffPairs(c, [
      { from: oldest.parent ?? emptyTree, to: worktree?.to ?? newestFirst[0]?.hash ?? oldest.hash },
    ]);
  return diffPairs(c, [...[...mine].reverse().map((l) => ({ from: l.parent ?? emptyTree, to: l.hash })), ...extra]);
}
