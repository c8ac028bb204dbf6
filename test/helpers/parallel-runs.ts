// Runs side by side in one repo's worktrees, as `queue --parallel` starts them: the guard of one run, and the step
// commits the others make meanwhile. Shared by the tests of what the guard leaves alone and what it catches.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRunWorktree } from '../../src/adapters/git/run-worktree.js';
import { repoStateOf } from './boxed-workspace.js';

const git = (dir: string, ...args: string[]): string =>
  execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** Two runs, `mine` and `other`: the guard of `mine`, with the repository's state taken before anything moves. */
export async function guardedBesideAnotherRun(repoDir: string) {
  const mine = await createRunWorktree({ repoRoot: repoDir, name: 'mine' });
  const other = await createRunWorktree({ repoRoot: repoDir, name: 'other' });
  const guard = repoStateOf(mine.path);
  const before = await guard.take();
  return { mine, other, guard, before };
}

/** A step commit in a run's worktree: `file` written with `text`, committed as `[Step 1] <text>`. */
export function commitStep(dir: string, file: string, text: string): void {
  writeFileSync(path.join(dir, file), `${text}\n`);
  git(dir, 'add', file);
  git(dir, 'commit', '-qm', `[Step 1] ${text}`);
}
