// Git operations agent-collab needs: find the repo, keep agent-collab's files out of it, find and word step commits.
import { spawn } from 'node:child_process';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { stepSubject } from '../../core/plan-steps.js';
import { UserError } from '../../core/errors.js';
import { adoptGroup, withOwnerTag } from '../owned-processes.js';
import { terminateGroup } from '../process-group.js';

export const RUN_TRAILER = 'Agent-Collab-Run';
/**
 * The tree a step's changes were measured against and when the step started: they tell this plan's step N from an
 * earlier plan's in the same run (the start also when an old step was reverted, so the base tree is the same again).
 */
export const BASE_TRAILER = 'Agent-Collab-Base';
export const STARTED_TRAILER = 'Agent-Collab-Step-Started';
/** How far back from HEAD a step commit is looked for (after a crash it is HEAD itself). */
const STEP_COMMIT_SEARCH_DEPTH = 200;

/** What tells one execution of a step from another: saved in the state before its first attempt. */
export interface StepCommitKey {
  runId: string;
  step: number;
  baseTree: string;
  /** Absent when the state has no start of the step (then run, step and base must do). */
  startedAt?: string | null;
}

function keyTrailers(key: StepCommitKey): string[] {
  const lines = [`${RUN_TRAILER}: ${key.runId}`, `${BASE_TRAILER}: ${key.baseTree}`];
  if (key.startedAt) lines.push(`${STARTED_TRAILER}: ${key.startedAt}`);
  return lines;
}

export interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** stdout was cut at `maxStdoutBytes` (git was ended then). */
  truncated?: boolean;
}

export interface GitCallOptions {
  /** Extra environment (e.g. GIT_INDEX_FILE for a temporary index). */
  env?: Record<string, string>;
  /** Written to git's stdin (e.g. a NUL-separated pathspec list for --pathspec-from-file=-). */
  input?: string;
  /** Aborting it kills git with everything it started (hooks, gpg); the call then resolves as failed. */
  signal?: AbortSignal;
  /** How `input` is written and stdout read: 'latin1' maps bytes to characters one to one (file contents). */
  encoding?: 'utf8' | 'latin1';
  /** Runs git through another program (agent-collab's boxed commit: bubblewrap): its command line for git's args. */
  wrap?: (gitArgs: string[]) => { command: string; args: string[] };
  /** Reads at most this many bytes of stdout, then ends git: the result holds what was read and `truncated`. */
  maxStdoutBytes?: number;
}

const STOPPED = 'git was stopped';
/**
 * On every git call of agent-collab's (it runs outside the box): nothing a nested repository in the working tree
 * configures runs. A submodule's `.git` lies in the tree, so an agent can give it a `core.fsmonitor` or a clean
 * filter; git would run them while checking whether the submodule is dirty (measured: `git status`, `git add -A`).
 * `-c` reaches the submodule's git too (GIT_CONFIG_PARAMETERS). Only a submodule's own commit counts for a step.
 */
export const SAFE_GIT_CONFIG = [
  '-c',
  'core.fsmonitor=false',
  '-c',
  'diff.ignoreSubmodules=dirty',
  '-c',
  'submodule.recurse=false',
];
/** Between SIGTERM (git removes its lock files) and SIGKILL to git's process group on an abort. */
const KILL_GRACE_MS = 2_000;

/** Runs git in `cwd`; never rejects on a git failure (look at exitCode). Throws a UserError when git is missing. */
export function runGit(cwd: string, args: string[], opts: GitCallOptions = {}): Promise<GitResult> {
  const { signal } = opts;
  if (signal?.aborted) return Promise.resolve({ stdout: '', stderr: STOPPED, exitCode: 1 });
  return new Promise((resolve, reject) => {
    // Its own process group and session: an abort reaches hooks and gpg too, and with no controlling terminal
    // nothing git starts can wait on a prompt there (nor can GIT_TERMINAL_PROMPT=0 git itself; stdin is no terminal).
    const safeArgs = [...SAFE_GIT_CONFIG, ...args];
    const launch = opts.wrap ? opts.wrap(safeArgs) : { command: 'git', args: safeArgs };
    const child = spawn(launch.command, launch.args, {
      cwd,
      env: withOwnerTag({ ...process.env, GIT_TERMINAL_PROMPT: '0', ...opts.env }),
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      detached: true,
    });
    // If agent-collab dies meanwhile, the watchdog ends git (SIGTERM first: git removes its lock files) and its hooks.
    const release = child.pid === undefined ? () => undefined : adoptGroup(child.pid, KILL_GRACE_MS);
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let stopped = false;
    const onAbort = (): void => {
      stopped = true;
      // A process that left the group may hold git's pipes open: once the group is down, the call ends anyway.
      if (child.pid !== undefined)
        void terminateGroup(child.pid, KILL_GRACE_MS).then(() => resolve({ stdout: '', stderr: STOPPED, exitCode: 1 }));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    let read = 0;
    let truncated = false;
    const max = opts.maxStdoutBytes;
    child.stdout?.on('data', (d: Buffer) => {
      if (truncated) return;
      if (max !== undefined && read + d.length > max) {
        // Enough read: the rest is never buffered, and git is ended rather than left writing to a full pipe.
        stdout.push(d.subarray(0, max - read));
        read = max;
        truncated = true;
        if (child.pid !== undefined) void terminateGroup(child.pid, KILL_GRACE_MS);
        return;
      }
      read += d.length;
      stdout.push(d);
    });
    child.stderr?.on('data', (d: Buffer) => stderr.push(d));
    child.once('error', (err: NodeJS.ErrnoException) => {
      release();
      signal?.removeEventListener('abort', onAbort);
      if (err.code === 'ENOENT' && !opts.wrap)
        reject(new UserError('git was not found on PATH; install git and try again'));
      else resolve({ stdout: '', stderr: `could not run git: ${err.message}`, exitCode: 1 });
    });
    child.once('close', (code) => {
      release();
      signal?.removeEventListener('abort', onAbort);
      if (stopped) resolve({ stdout: '', stderr: STOPPED, exitCode: 1 });
      else
        resolve({
          stdout: Buffer.concat(stdout).toString(opts.encoding ?? 'utf8'),
          stderr: Buffer.concat(stderr).toString('utf8'),
          // Ended on purpose once enough was read: what was read is the answer.
          exitCode: truncated ? 0 : (code ?? 1),
          ...(truncated ? { truncated } : {}),
        });
    });
    if (child.stdin) {
      child.stdin.on('error', () => undefined); // git may exit before reading all of it; its exit code tells
      child.stdin.end(opts.input === undefined ? undefined : Buffer.from(opts.input, opts.encoding ?? 'utf8'));
    }
  });
}

const git = runGit;

/** The first meaningful line of git's error output. */
export function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l && !l.startsWith('hint:')) ?? 'unknown error'
  );
}

/** The top of the git work tree containing `cwd`, or a UserError saying how to get one. */
export async function findRepoRoot(cwd: string): Promise<string> {
  return (await locateRepo(cwd)).root;
}

export interface RepoLocation {
  root: string;
  /** `.git/info/exclude` (absolute; in a linked worktree, the main repository's). */
  excludeFile: string;
}

/** The work tree top containing `cwd` and where its `info/exclude` is. */
export async function locateRepo(cwd: string): Promise<RepoLocation> {
  const r = await git(cwd, ['rev-parse', '--show-toplevel', '--git-path', 'info/exclude']);
  const [root, exclude] = r.stdout.split('\n');
  if (r.exitCode !== 0 || !root || !exclude)
    throw new UserError(`${cwd} is not inside a git repository; cd into your project or run \`git init\` first`);
  // --git-path answers relative to the directory git ran in.
  return { root, excludeFile: path.resolve(cwd, exclude) };
}

/** Adds agent-collab's work dir to .git/info/exclude (`excludeFile`) so it never shows up in `git status` or a commit. */
export async function excludeWorkdir(excludeFile: string, workdirRel: string): Promise<void> {
  const pattern = `/${workdirRel.replace(/^\/+|\/+$/g, '')}/`;
  const existing = await readFile(excludeFile, 'utf8').catch(() => '');
  if (existing.split('\n').some((l) => l.trim() === pattern)) return;
  await mkdir(path.dirname(excludeFile), { recursive: true });
  await appendFile(
    excludeFile,
    `${existing && !existing.endsWith('\n') ? '\n' : ''}# agent-collab's own files\n${pattern}\n`,
  );
}

/**
 * The hash of the commit of this execution of a step, if it was already made; looked for among the last
 * STEP_COMMIT_SEARCH_DEPTH commits of HEAD. The run id alone is not enough: Stop keeps the run id for the next plan,
 * whose step N must not be taken for the old plan's. Commits without a base trailer (older versions) never match.
 */
export async function findStepCommit(
  repoRoot: string,
  key: StepCommitKey,
  signal?: AbortSignal,
): Promise<string | null> {
  return (await stepCommitAndHeadTree(repoRoot, key, signal)).found;
}

/**
 * findStepCommit, and HEAD's tree read by the same git process (the newest commit `git log` lists is HEAD):
 * `headTree` is undefined when the log could not be read (e.g. no commits yet).
 */
export async function stepCommitAndHeadTree(
  repoRoot: string,
  key: StepCommitKey,
  signal?: AbortSignal,
): Promise<{ found: string | null; headTree: string | undefined }> {
  // --no-show-signature: a person's log.showSignature would put gpg's lines into the output.
  const r = await git(
    repoRoot,
    [
      'log',
      '--no-show-signature',
      '--no-color',
      '--format=%H%x1f%T%x1f%s%x1f%b%x1e',
      '-n',
      String(STEP_COMMIT_SEARCH_DEPTH),
    ],
    { signal },
  );
  if (r.exitCode !== 0) return { found: null, headTree: undefined };
  const wanted = keyTrailers(key);
  const records = r.stdout.split('\x1e').map((rec) => rec.trim().split('\x1f'));
  const headTree = /^[0-9a-f]{40,64}$/.exec(records[0]?.[1] ?? '')?.[0];
  for (const [hash, , subject, body = ''] of records) {
    const lines = new Set(body.split('\n').map((l) => l.trim()));
    if (hash && subject?.startsWith(`[Step ${key.step}] `) && wanted.every((l) => lines.has(l)))
      return { found: hash, headTree };
  }
  return { found: null, headTree };
}

/** `git commit` arguments of a step commit: the `[Step N] <summary>` subject, then the trailers of its key. */
export function stepCommitMessageArgs(key: StepCommitKey, summary: string): string[] {
  return ['-m', stepSubject(key.step, summary), '-m', keyTrailers(key).join('\n')];
}

/** One line saying why a step commit failed and what to do about it. */
export function commitFailureMessage(step: number, output: string): string {
  const why = firstLine(output);
  const hint = /identity|user\.email|user\.name/i.test(output)
    ? '; set it with `git config user.name …` and `git config user.email …`, then retry'
    : '; fix it, then retry';
  return `git commit of step ${step} failed: ${why}${hint}`;
}
