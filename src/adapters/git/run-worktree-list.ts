// The runs across a repository's worktrees (`agent-collab ls`) and the removal of finished run worktrees
// (`agent-collab clean`). Reading is read-only: state.json is parsed, never moved aside, and no lock is taken; a
// worktree whose instance lock is held by a live process shows its run as running.
import { copyFile, lstat, mkdir, readdir, readFile, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { acquireInstanceLock } from '../../persistence/instance-lock.js';
import { workflowStateSchema } from '../../persistence/state-schema.js';
import { firstLine, runGit } from './git.js';
import { mainCheckoutOf, RUN_BRANCH_PREFIX, runWorktreesDir } from './run-worktree.js';

export interface RunListing {
  /** The worktree's dir name (a run worktree's slug), or "(main)" for the main checkout. */
  name: string;
  branch: string | null;
  path: string;
  /** The main checkout (never removed by clean). */
  main: boolean;
  /** A worktree agent-collab made (`<repo>-agent-collab/<slug>` on `agent-collab/<slug>`). */
  runWorktree: boolean;
  /** The saved run's phase; null: no run there (or its state.json unreadable). */
  phase: string | null;
  /** A live process holds the worktree's instance lock. */
  running: boolean;
  stepsDone: number;
  stepsTotal: number;
  costUsd: number;
  goal: string | null;
  /** When the saved run last changed (its state's updatedAt): for a DONE run, when it ended. */
  endedAt: string | null;
}

const WORKDIR = '.agent-collab';

/** Every worktree of the repository containing `dir`, main checkout first, with its run as its state.json says. */
export async function listRuns(dir: string): Promise<RunListing[]> {
  const main = await mainCheckoutOf(dir);
  const r = await runGit(main, ['worktree', 'list', '--porcelain']);
  const runsDir = runWorktreesDir(main) + path.sep;
  const rows: RunListing[] = [];
  for (const block of r.stdout.split('\n\n')) {
    const lines = block.split('\n');
    const at = lines[0]?.startsWith('worktree ') ? lines[0].slice('worktree '.length) : null;
    if (at === null || lines.includes('bare')) continue;
    const ref = lines.find((l) => l.startsWith('branch '))?.slice('branch refs/heads/'.length) ?? null;
    const isMain = rows.length === 0;
    const runWorktree = !isMain && at.startsWith(runsDir) && (ref?.startsWith(RUN_BRANCH_PREFIX) ?? false);
    rows.push({
      name: isMain ? '(main)' : path.basename(at),
      branch: ref,
      path: at,
      main: isMain,
      runWorktree,
      ...(await runAt(at)),
    });
  }
  return rows;
}

async function runAt(worktree: string): Promise<Omit<RunListing, 'name' | 'branch' | 'path' | 'main' | 'runWorktree'>> {
  const workdir = path.join(worktree, WORKDIR);
  const running = await lockHeldByLiveProcess(workdir);
  const none = { phase: null, running, stepsDone: 0, stepsTotal: 0, costUsd: 0, goal: null, endedAt: null };
  const text = await readFile(path.join(workdir, 'state.json'), 'utf8').catch(() => null);
  if (text === null) return none;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return none; // being rewritten, or broken: the run itself says so when it opens it
  }
  const parsed = workflowStateSchema.safeParse(data);
  if (!parsed.success) return none;
  const s = parsed.data;
  return {
    phase: s.phase,
    running,
    stepsDone: s.steps.filter((st) => st.done).length,
    stepsTotal: s.steps.length,
    costUsd: s.usage.costUsd,
    goal: s.goal,
    endedAt: s.updatedAt,
  };
}

/** The instance lock's pid file names a live process (instance-lock.ts writes it right after taking the lock). */
async function lockHeldByLiveProcess(workdir: string): Promise<boolean> {
  const pid = Number.parseInt((await readFile(path.join(workdir, 'agent-collab.pid'), 'utf8').catch(() => '')).trim());
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Why `clean` keeps this worktree (one line), or null when it may go: a finished run worktree with no changes. */
export async function whyKept(row: RunListing): Promise<string | null> {
  if (!row.runWorktree) return row.main ? 'the main checkout' : 'not a worktree agent-collab made';
  if (row.running) return 'a run is under way there';
  if (row.phase !== 'DONE')
    return row.phase === null ? 'no finished run there' : `its run is not finished (${row.phase})`;
  const status = await runGit(row.path, ['status', '--porcelain', '--untracked-files=all']);
  if (status.exitCode !== 0) return `git status failed there: ${firstLine(status.stderr)}`;
  if (status.stdout.trim() !== '') return 'it has uncommitted changes; commit or remove them first';
  // `git worktree remove` takes ignored files and agent-collab's dir along: what the person left there is kept.
  const inbox = (await readdir(path.join(row.path, WORKDIR, 'inbox')).catch(() => [] as string[])).filter((n) =>
    n.endsWith('.md'),
  );
  if (inbox.length > 0)
    return `instructions wait in its ${WORKDIR}/inbox/ (${few(inbox)}); run them there or move them first`;
  const since = row.endedAt === null ? [] : await ignoredSince(row.path, Date.parse(row.endedAt));
  if (since.length > 0)
    return `ignored files were written there after its run ended (${few(since)}); move or delete them first`;
  return null;
}

function few(names: string[]): string {
  return names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
}

/**
 * The ignored files of a worktree (agent-collab's dir aside) changed after `time`: the person's, not the run's (what
 * the run built or installed is as old as the run). Up to 4, enough to name them.
 */
async function ignoredSince(worktree: string, time: number): Promise<string[]> {
  if (!Number.isFinite(time)) return [];
  const r = await runGit(worktree, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard']);
  const files = r.stdout.split('\0').filter((f) => f !== '' && !f.startsWith(`${WORKDIR}/`));
  const found: string[] = [];
  for (let i = 0; i < files.length && found.length < 4; i += 256) {
    const batch = files.slice(i, i + 256);
    const times = await Promise.all(
      batch.map((f) =>
        lstat(path.join(worktree, f)).then(
          (st) => st.mtimeMs,
          () => 0,
        ),
      ),
    );
    batch.forEach((f, k) => (times[k]! > time ? found.push(f) : undefined));
  }
  return found;
}

/**
 * Removes a run worktree `whyKept` let go; its branch (holding the `[Step N]` commits) stays. The run reports go to
 * the main checkout's `.agent-collab/worktree-runs/<name>/` first. Resolves to where they went, or rejects with why.
 */
export async function removeRunWorktree(row: RunListing): Promise<string> {
  // The worktree's instance lock, held while removing: a run starting there meanwhile (it takes the lock a moment
  // before it writes the pid `ls` reads) is not removed under it, and none can start until the worktree is gone.
  let release: () => Promise<void>;
  try {
    release = await acquireInstanceLock(path.join(row.path, WORKDIR), { onCompromised: () => undefined });
  } catch {
    throw new Error('a run is under way there');
  }
  try {
    return await removeLocked(row);
  } finally {
    await release();
  }
}

async function removeLocked(row: RunListing): Promise<string> {
  const why = await whyKept(row);
  if (why !== null) throw new Error(why);
  const main = await mainCheckoutOf(row.path);
  const kept = path.join(main, WORKDIR, 'worktree-runs', row.name);
  // Its last run's reports, and those of the runs archived there before it (history/<date>-<slug>/runs/).
  const history = path.join(row.path, WORKDIR, 'history');
  const archived = (await readdir(history).catch(() => [] as string[])).map((d) => path.join(history, d, 'runs'));
  for (const runs of [path.join(row.path, WORKDIR, 'runs'), ...archived])
    for (const id of await readdir(runs).catch(() => [] as string[])) {
      const report = path.join(runs, id, 'report.md');
      await mkdir(path.join(kept, id), { recursive: true });
      await copyFile(report, path.join(kept, id, 'report.md')).catch(() => undefined); // a run without a report
    }
  // `.agent-collab/` is kept out of git (info/exclude), so `git worktree remove` takes it along without --force.
  const r = await runGit(main, ['worktree', 'remove', row.path]);
  if (r.exitCode !== 0) throw new Error(`git worktree remove failed: ${firstLine(r.stderr)}`);
  // The dir of run worktrees goes with its last one.
  await rmdir(path.dirname(row.path)).catch(() => undefined); // not empty: other runs' worktrees stay
  return kept;
}
