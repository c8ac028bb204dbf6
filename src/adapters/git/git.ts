// Git operations agent-collab needs: find the repo, keep agent-collab's files out of it, find and word step commits.
import { spawn } from 'node:child_process';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { stepSubject } from '../../core/plan-steps.js';
import { UserError } from '../../core/errors.js';

export const RUN_TRAILER = 'Agent-Collab-Run';

export interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface GitCallOptions {
  /** Extra environment (e.g. GIT_INDEX_FILE for a temporary index). */
  env?: Record<string, string>;
  /** Written to git's stdin (e.g. a NUL-separated pathspec list for --pathspec-from-file=-). */
  input?: string;
}

/** Runs git in `cwd`; never rejects on a git failure (look at exitCode). Throws a UserError when git is missing. */
export function runGit(cwd: string, args: string[], opts: GitCallOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', ...opts.env },
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout?.on('data', (d: Buffer) => stdout.push(d));
    child.stderr?.on('data', (d: Buffer) => stderr.push(d));
    child.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') reject(new UserError('git was not found on PATH; install git and try again'));
      else resolve({ stdout: '', stderr: `could not run git: ${err.message}`, exitCode: 1 });
    });
    child.once('close', (code) => {
      resolve({ stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8'), exitCode: code ?? 1 });
    });
    if (child.stdin) {
      child.stdin.on('error', () => undefined); // git may exit before reading all of it; its exit code tells
      child.stdin.end(opts.input);
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
  if (r.exitCode !== 0 || !root || !exclude) throw new UserError(`${cwd} is not inside a git repository; cd into your project or run \`git init\` first`);
  // --git-path answers relative to the directory git ran in.
  return { root, excludeFile: path.resolve(cwd, exclude) };
}

/** Adds agent-collab's work dir to .git/info/exclude (`excludeFile`) so it never shows up in `git status` or a commit. */
export async function excludeWorkdir(excludeFile: string, workdirRel: string): Promise<void> {
  const pattern = `/${workdirRel.replace(/^\/+|\/+$/g, '')}/`;
  const existing = await readFile(excludeFile, 'utf8').catch(() => '');
  if (existing.split('\n').some((l) => l.trim() === pattern)) return;
  await mkdir(path.dirname(excludeFile), { recursive: true });
  await appendFile(excludeFile, `${existing && !existing.endsWith('\n') ? '\n' : ''}# agent-collab's own files\n${pattern}\n`);
}

/** The hash of run `runId`'s commit for `step`, if it was already made (searched in the last 200 commits of HEAD). */
export async function findStepCommit(repoRoot: string, runId: string, step: number): Promise<string | null> {
  const trailer = `${RUN_TRAILER}: ${runId}`;
  const r = await git(repoRoot, ['log', '--fixed-strings', `--grep=${trailer}`, '--format=%H%x1f%s%x1f%b%x1e', '-n', '200']);
  if (r.exitCode !== 0) return null; // e.g. no commits yet
  for (const rec of r.stdout.split('\x1e')) {
    const [hash, subject, body = ''] = rec.trim().split('\x1f');
    // The grep matches substrings (run "r-1" in "r-10"): the trailer line must be exactly this run's.
    if (hash && subject?.startsWith(`[Step ${step}] `) && body.split('\n').some((l) => l.trim() === trailer)) return hash;
  }
  return null;
}

/** `git commit` arguments of a step commit: the `[Step N] <summary>` subject and the run trailer. */
export function stepCommitMessageArgs(runId: string, step: number, summary: string): string[] {
  return ['-m', stepSubject(step, summary), '-m', `${RUN_TRAILER}: ${runId}`];
}

/** One line saying why a step commit failed and what to do about it. */
export function commitFailureMessage(step: number, output: string): string {
  const why = firstLine(output);
  const hint = /identity|user\.email|user\.name/i.test(output)
    ? '; set it with `git config user.name …` and `git config user.email …`, then retry'
    : '; fix it, then retry';
  return `git commit of step ${step} failed: ${why}${hint}`;
}
