// `--worktree [name]` (a run in a worktree of its own), `agent-collab ls` and `agent-collab clean` (issue 21).
import { createInterface } from 'node:readline/promises';
import type { Writable } from 'node:stream';
import { EXIT, UserError } from '../core/errors.js';
import { neutralizeControls } from '../core/terminal-text.js';
import { createRunWorktree, type RunWorktree } from '../adapters/git/run-worktree.js';
import { listRuns, removeRunWorktree, whyKept, type RunListing } from '../adapters/git/run-worktree-list.js';

/**
 * Takes `--worktree [name]` out of `args` (node's parseArgs has no option with an optional value): the name is the
 * next argument unless that is another option. `--worktree=<name>` works too.
 */
export function takeWorktreeFlag(args: string[]): { args: string[]; worktree: { name?: string } | null } {
  const out: string[] = [];
  let worktree: { name?: string } | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === '--worktree') {
      const next = args[i + 1];
      worktree = next !== undefined && !next.startsWith('-') ? { name: next } : {};
      if (worktree.name !== undefined) i++;
    } else if (a.startsWith('--worktree=')) worktree = { name: a.slice('--worktree='.length) };
    else out.push(a);
  }
  return { args: out, worktree };
}

/** Makes the run's worktree and says where on stderr (stdout stays the run's own, NDJSON with --json). */
export async function startInWorktree(
  repoDir: string,
  worktree: { name?: string },
  goal: string | undefined,
  stderr: Writable = process.stderr,
): Promise<RunWorktree> {
  const wt = await createRunWorktree({
    repoRoot: repoDir,
    goal: goal ?? `run ${new Date().toISOString().slice(0, 16).replace(/[-:T]/g, '')}`,
    ...(worktree.name !== undefined ? { name: worktree.name } : {}),
  });
  stderr.write(`agent-collab: running in worktree ${wt.path} on branch ${wt.branch}\n`);
  return wt;
}

function phaseOf(r: RunListing): string {
  if (r.phase === null) return r.running ? 'starting' : '-';
  return r.running ? `${r.phase} (running)` : r.phase;
}

function jsonOf(r: RunListing): Record<string, unknown> {
  return {
    name: r.name,
    branch: r.branch,
    path: r.path,
    main: r.main,
    run_worktree: r.runWorktree,
    phase: r.phase,
    running: r.running,
    steps_done: r.stepsDone,
    steps_total: r.stepsTotal,
    cost_usd: r.costUsd,
    goal: r.goal,
  };
}

/** `agent-collab ls`: one row per worktree of the repo (main checkout first); `--json`: one object per line. */
export async function runLs(opts: { cwd: string; json: boolean; stdout?: Writable }): Promise<number> {
  const out = opts.stdout ?? process.stdout;
  const rows = await listRuns(opts.cwd);
  if (opts.json) {
    for (const r of rows) out.write(`${JSON.stringify(jsonOf(r))}\n`);
    return EXIT.done;
  }
  const table = [
    ['NAME', 'BRANCH', 'PHASE', 'STEPS', 'COST', 'PATH'],
    ...rows.map((r) => [
      r.name,
      r.branch ?? '(detached)',
      phaseOf(r),
      r.phase === null ? '-' : `${r.stepsDone}/${r.stepsTotal}`,
      r.phase === null ? '-' : `$${r.costUsd.toFixed(2)}`,
      r.path,
    ]),
  ].map((cells) => cells.map((c) => neutralizeControls(c)));
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  for (const row of table)
    out.write(`${row.map((c, i) => (i < row.length - 1 ? c.padEnd(widths[i]!) : c)).join('  ')}\n`);
  return EXIT.done;
}

/**
 * `agent-collab clean`: removes the run worktrees whose run is DONE and that have no uncommitted changes; their
 * branches stay. Says what it would remove and why it keeps the others; removes only with `--yes` or a "y" typed on
 * the terminal.
 */
export async function runClean(opts: {
  cwd: string;
  yes: boolean;
  stdout?: Writable;
  ask?: ((question: string) => Promise<boolean>) | null;
}): Promise<number> {
  const out = opts.stdout ?? process.stdout;
  const rows = (await listRuns(opts.cwd)).filter((r) => r.runWorktree);
  const removable: RunListing[] = [];
  for (const r of rows) {
    const why = await whyKept(r);
    if (why === null) removable.push(r);
    else out.write(`keeping ${r.name} (${r.path}): ${why}\n`);
  }
  if (removable.length === 0) {
    out.write('nothing to clean: no finished run worktree\n');
    return EXIT.done;
  }
  for (const r of removable)
    out.write(`${opts.yes ? 'removing' : 'would remove'} ${r.name} (${r.path}); branch ${r.branch} stays\n`);
  if (!opts.yes) {
    const ask = opts.ask === undefined ? (process.stdin.isTTY ? askNo : null) : opts.ask;
    if (ask === null) {
      out.write('run `agent-collab clean --yes` to remove them\n');
      return EXIT.needsHuman;
    }
    if (!(await ask(`Remove ${removable.length} worktree${removable.length === 1 ? '' : 's'}? [y/N]`))) {
      out.write('nothing removed\n');
      return EXIT.done;
    }
  }
  let failed = 0;
  for (const r of removable) {
    try {
      const reports = await removeRunWorktree(r);
      out.write(`removed ${r.path}; its run reports are in ${reports}\n`);
    } catch (err) {
      failed++;
      out.write(`kept ${r.path}: ${(err as Error).message}\n`);
    }
  }
  if (failed > 0) throw new UserError(`${failed} worktree${failed === 1 ? '' : 's'} could not be removed (see above)`);
  return EXIT.done;
}

/** A yes/no question where Enter means no: removing is not the default. */
async function askNo(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = (await rl.question(`${question} `)).trim().toLowerCase();
    return answer === 'y' || answer === 'yes';
  } finally {
    rl.close();
  }
}
