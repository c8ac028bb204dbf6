// The claude process runs inside agent-collab's bubblewrap box on every turn (as codex does), its own sandbox nested
// inside for write turns. Without the box, when agent-collab runs as root a command in claude's sandbox keeps root's
// capabilities and can `mount -o remount,rw /` (measured on 2.1.197). What claude itself must write, and what its
// nested sandbox must mount over, is set up here; measured with strace on 2.1.197, see docs/confinement.md.
import { existsSync, mkdirSync, readdirSync, realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitDirsOf, type PrivateDir } from '../confinement/index.js';

/** claude's config dir: `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeConfigDir(env: NodeJS.ProcessEnv): string {
  return env.CLAUDE_CONFIG_DIR ?? path.join(env.HOME ?? os.homedir(), '.claude');
}

/**
 * What claude writes in its config dir during a turn besides its session files: per-process and per-session scratch
 * (shell snapshots its Bash sources, the session's env, the pid registry, backups of ~/.claude.json, todos, caches).
 * In the box these start empty and private, and vanish after the turn; the real ones are not shown, since claude must
 * write there (with the config dir read-only every Bash call failed: "EROFS: read-only file system, mkdir …").
 */
export const CLAUDE_SCRATCH_ENTRIES = [
  '.last-cleanup',
  'backups',
  'debug',
  'file-history',
  'paste-cache',
  'plans',
  'session-env',
  'sessions',
  'shell-snapshots',
  'statsig',
  'tasks',
  'todos',
];

/** claude's longest project dir name before it appends a hash (2.1.197: `rtt=200`). */
const PROJECT_KEY_MAX = 200;

/**
 * The name of a dir's project dir under `projects/` as claude 2.1.197 derives it (`$E`): every character but ASCII
 * letters and digits becomes `-`; a longer name is cut and gets the path's 32-bit string hash in base 36.
 */
export function claudeProjectKey(dir: string): string {
  const key = dir.replace(/[^a-zA-Z0-9]/g, '-');
  if (key.length <= PROJECT_KEY_MAX) return key;
  let hash = 0;
  for (let i = 0; i < dir.length; i++) hash = (hash * 31 + dir.charCodeAt(i)) | 0;
  return `${key.slice(0, PROJECT_KEY_MAX)}-${Math.abs(hash).toString(36)}`;
}

function realDir(p: string): string {
  try {
    return realpathSync(p).normalize('NFC');
  } catch {
    return path.resolve(p).normalize('NFC');
  }
}

/**
 * claude's config dir in the box. Writable and persistent: the session dir of the turn's cwd (`projects/<key>/`,
 * which `--resume` reads) and `.credentials.json` (an OAuth refresh must be able to save the new token: claude writes
 * it through a temp file and a rename, falling back to copying into the file). Read-only: every other project dir,
 * and the auto-memory dir `projects/<key>/memory/` inside the writable one — claude auto-allows its Write tool there
 * (2.1.197: "auto memory files are allowed for writing", even with auto memory turned off) and every later claude
 * session of the person in this repo loads MEMORY.md into its prompt (found by a hostile review). The memory dir is
 * created (empty) before the box, as the mount point of its read-only view. Everything else that claude reads as its
 * configuration (settings.json, CLAUDE.md, hooks/, agents/, commands/, skills/, plugins/ …) is read-only; new files
 * land in a private file system and vanish with the box, so a planted `settings.json` never reaches a later claude.
 */
export function claudeConfigBox(
  env: NodeJS.ProcessEnv,
  cwd: string,
): { stateDirs: string[]; privateDirs: PrivateDir[] } {
  const dir = claudeConfigDir(env);
  const projects = path.join(dir, 'projects');
  const sessions = path.join(projects, claudeProjectKey(realDir(cwd)));
  const memory = path.join(sessions, 'memory');
  try {
    mkdirSync(memory, { recursive: true });
  } catch {
    // claude says what is wrong with its own dir
  }
  return {
    stateDirs: [sessions],
    privateDirs: [
      { path: dir, keep: ['.credentials.json'], hide: CLAUDE_SCRATCH_ENTRIES, scratch: true },
      { path: projects },
      { path: memory },
    ],
  };
}

/**
 * Files claude's sandbox (2.1.197) mounts over in a git dir, creating them when the dir has none (bubblewrap needs a
 * mount point; outside a box it creates and later removes empty files in the real `.git`). The box keeps git dirs
 * read-only, so they are provided there as empty read-only placeholders. Only names git does not read are faked.
 */
export const CLAUDE_GIT_MOUNT_POINTS = ['hooks', 'config', 'config.lock', 'config.worktree'];

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The repo's git dirs as read-only private dirs holding claude's mount points (and each linked worktree's entry). */
export function claudeGitMountPoints(repo: string): PrivateDir[] {
  const points = new Map<string, Set<string>>();
  const add = (dir: string, names: string[]) => {
    const set = points.get(dir) ?? new Set<string>();
    for (const n of names) set.add(n);
    points.set(dir, set);
  };
  for (const gitDir of gitDirsOf(repo).filter(isDir)) {
    add(gitDir, CLAUDE_GIT_MOUNT_POINTS);
    const worktrees = path.join(gitDir, 'worktrees');
    if (!existsSync(worktrees)) continue;
    // claude's sandbox also mounts over `config.worktree` of every linked worktree a main repo has.
    for (const name of readdirSync(worktrees)) {
      const entry = path.join(worktrees, name);
      if (isDir(entry)) add(entry, ['config.worktree']);
    }
  }
  return [...points].map(([dir, names]) => ({ path: dir, mountPoints: [...names] }));
}
