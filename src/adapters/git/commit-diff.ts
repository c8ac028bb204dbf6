// One step commit's patch for the TUI's Diff tab (issue 20): the files it changed with exact line counts (numstat,
// as the run report counts them) and its patch, read up to a cap so a huge commit cannot fill memory.
import type { CommitDiff } from '../../core/commit-diff.js';
import { filesChangedBy } from './run-commits.js';
import { firstLine, runGit } from './git.js';
import { REVIEW_DIFF_FLAGS } from './review-diff.js';

/** The patch of one commit is read up to this much; the Diff tab says where it was cut. */
export const MAX_COMMIT_DIFF_BYTES = 1024 * 1024;
const COMMIT_ID = /^[0-9a-f]{7,64}$/;

/** What `commit` changed outside agent-collab's work dir (`pathspec`). */
export async function commitDiff(
  repoRoot: string,
  commit: string,
  pathspec: readonly string[],
  maxBytes = MAX_COMMIT_DIFF_BYTES,
): Promise<CommitDiff> {
  // The id comes from the state file: anything but a commit id never reaches git's command line.
  if (!COMMIT_ID.test(commit)) throw new Error(`not a commit id: ${commit.slice(0, 80)}`);
  const files = await filesChangedBy(repoRoot, [{ hash: commit, subject: '' }], pathspec);
  const r = await runGit(
    repoRoot,
    ['diff-tree', '-p', '-r', '--root', '--no-commit-id', ...REVIEW_DIFF_FLAGS, commit, '--', ...pathspec],
    { maxStdoutBytes: maxBytes },
  );
  if (r.exitCode !== 0) throw new Error(`could not read commit ${commit.slice(0, 7)}: ${firstLine(r.stderr)}`);
  return { files, patch: r.stdout, truncated: r.truncated === true };
}
