import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { secretEnvValues } from '../core/redact.js';
import { slugOf } from '../core/slug.js';
import type { Paths } from './paths.js';

/**
 * Moves the run's files (state.json, plan.md, comments.md, ledger.md, log.md, runs/ — whichever exist) into
 * `history/<YYYY-MM-DD>-<slug>/` and returns that directory. debug.log, config.toml and prompts/ stay.
 */
export async function archiveRun(
  paths: Pick<Paths, 'history' | 'state' | 'plan' | 'comments' | 'ledger' | 'log' | 'runs'>,
  run: { goal: string; date?: Date },
): Promise<string> {
  await mkdir(paths.history, { recursive: true });
  const dir = await makeUniqueDir(
    path.join(paths.history, `${localDate(run.date ?? new Date())}-${slugify(run.goal)}`),
  );
  for (const source of [paths.state, paths.plan, paths.comments, paths.ledger, paths.log, paths.runs]) {
    await rename(source, path.join(dir, path.basename(source))).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }
  return dir;
}

/** The history dir's slug of the goal: without a secret of it (the goal in memory holds the real values). */
export function slugify(goal: string): string {
  return slugOf(goal, secretEnvValues(process.env));
}

function localDate(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** mkdir without `recursive` fails on an existing dir, so two archivers never share one. */
async function makeUniqueDir(base: string): Promise<string> {
  for (let i = 1; ; i++) {
    const dir = i === 1 ? base : `${base}-${i}`;
    try {
      await mkdir(dir);
      return dir;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}
