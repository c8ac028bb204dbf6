import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
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

/** Lowercase ASCII words joined by '-', at most 40 characters; 'run' when nothing is left. */
export function slugify(goal: string): string {
  const words = goal
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let slug = '';
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > 40) {
      if (!slug) slug = word.slice(0, 40);
      break;
    }
    slug = next;
  }
  return slug || 'run';
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
