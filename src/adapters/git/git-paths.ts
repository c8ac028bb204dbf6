// Where git keeps a repository's files (index, HEAD, config, hooks, the markers of a rebase or merge, …), asked
// with ONE `git rev-parse` for the whole session: a step commit's guards each needed their own, and each git
// process costs 20–40 ms on a loaded machine (measured). They do not move while agent-collab runs; hooks follow
// core.hooksPath as it was when first asked, as the guards always did.
import path from 'node:path';
import { firstLine, runGit } from './git.js';

/** What git leaves in the git dir while a rebase, merge, … is under way (repo-safety.ts). */
export const OPERATION_MARKERS = [
  'rebase-merge',
  'rebase-apply',
  'rebase-apply/applying',
  'MERGE_HEAD',
  'CHERRY_PICK_HEAD',
  'REVERT_HEAD',
  'BISECT_LOG',
] as const;

/** The names `gitPath()` answers for (`git rev-parse --git-path <name>`). */
export const GIT_PATH_NAMES = [
  'index',
  'HEAD',
  'logs/refs/stash',
  'config',
  'config.worktree',
  'hooks',
  ...OPERATION_MARKERS,
] as const;
export type GitPathName = (typeof GIT_PATH_NAMES)[number];

export interface GitPaths {
  /** This worktree's git dir (absolute). */
  gitDir: string;
  /** The repository's common git dir (absolute; the same as gitDir outside a linked worktree). */
  commonDir: string;
  /** The working tree's top directory. */
  toplevel: string;
  /** `git rev-parse --git-path <name>`, absolute. */
  gitPath: (name: GitPathName) => string;
}

/** Reads the paths once; a failed read is asked again next time. Shared by a session's workspace and guards. */
export class GitPathsOnce {
  private paths: Promise<GitPaths> | null = null;

  constructor(private readonly repoRoot: string) {}

  get(): Promise<GitPaths> {
    this.paths ??= readGitPaths(this.repoRoot).catch((err: unknown) => {
      this.paths = null;
      throw err;
    });
    return this.paths;
  }
}

async function readGitPaths(repoRoot: string): Promise<GitPaths> {
  // No --path-format=absolute: git before 2.31 does not know it and echoes it back as a line of output (exit 0),
  // which would shift every path by one. Relative answers are relative to the repo root (git's cwd here).
  const args = [
    'rev-parse',
    '--absolute-git-dir',
    '--git-common-dir',
    '--show-toplevel',
    ...GIT_PATH_NAMES.flatMap((n) => ['--git-path', n]),
  ];
  const r = await runGit(repoRoot, args);
  const lines = r.stdout.split('\n');
  if (r.exitCode !== 0 || lines.length < 3 + GIT_PATH_NAMES.length || !path.isAbsolute(lines[0] ?? ''))
    throw new Error(
      `could not find the repository's git dir (git rev-parse): ${firstLine(r.stderr) || firstLine(r.stdout)}`,
    );
  const abs = (l: string | undefined): string => path.resolve(repoRoot, l ?? '');
  const byName = new Map(GIT_PATH_NAMES.map((n, i) => [n, abs(lines[3 + i])]));
  return {
    gitDir: abs(lines[0]),
    commonDir: abs(lines[1]),
    toplevel: abs(lines[2]),
    gitPath: (name) => byName.get(name) ?? path.join(abs(lines[0]), name),
  };
}
