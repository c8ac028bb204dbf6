// Keeps `runs/` (the per-step artifacts of every run) within `[paths] runs_max_size`: the oldest runs go first, the
// run under way never. Each removal is logged; a run that cannot be measured or removed is left as it is.
import { lstat, readdir, rm } from 'node:fs/promises';
import path from 'node:path';

export interface PrunedRun {
  runId: string;
  bytes: number;
}

/** Bytes of a directory tree (symlinks counted as themselves, never followed). */
async function treeBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await treeBytes(p);
    else total += (await lstat(p)).size;
  }
  return total;
}

/**
 * Removes the oldest run directories of `runsDir` (by last change) until the rest fits in `maxBytes`; `keep` (the
 * current run's id) is never removed. Returns what was removed, oldest first.
 */
export async function pruneRuns(
  runsDir: string,
  maxBytes: number,
  keep: string | null,
  log: (line: string) => void,
): Promise<PrunedRun[]> {
  let entries;
  try {
    entries = await readdir(runsDir, { withFileTypes: true });
  } catch {
    return []; // no runs yet
  }
  const runs: Array<{ runId: string; bytes: number; mtimeMs: number }> = [];
  for (const e of entries) {
    if (!e.isDirectory()) continue; // a symlink or a stray file is not a run of ours
    const dir = path.join(runsDir, e.name);
    try {
      runs.push({ runId: e.name, bytes: await treeBytes(dir), mtimeMs: (await lstat(dir)).mtimeMs });
    } catch {
      // changed while measured: left alone
    }
  }
  let total = runs.reduce((n, r) => n + r.bytes, 0);
  const pruned: PrunedRun[] = [];
  for (const r of runs.sort((a, b) => a.mtimeMs - b.mtimeMs)) {
    if (total <= maxBytes) break;
    if (r.runId === keep) continue;
    try {
      await rm(path.join(runsDir, r.runId), { recursive: true, force: true });
    } catch (err) {
      log(`runs/${r.runId} could not be removed: ${(err as Error).message}`);
      continue;
    }
    total -= r.bytes;
    pruned.push({ runId: r.runId, bytes: r.bytes });
    log(
      `removed runs/${r.runId} (${r.bytes} bytes), the oldest run: runs/ is kept within runs_max_size (${maxBytes} bytes)`,
    );
  }
  return pruned;
}
