import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pruneRuns } from '../../../src/persistence/runs-prune.js';
import { tempDir } from './tmp-dir.js';

const KB = 1024;

/** A run dir with one 300 KB artifact, last changed `ageS` seconds ago. */
async function run(runs: string, id: string, ageS: number): Promise<void> {
  const attempt = path.join(runs, id, 'step-1', 'attempt-1');
  await mkdir(attempt, { recursive: true });
  await writeFile(path.join(attempt, 'test-output.txt'), 'x'.repeat(300 * KB));
  const t = new Date(Date.now() - ageS * 1000);
  await utimes(path.join(runs, id), t, t);
}

describe('runs/ within runs_max_size', () => {
  it('removes the oldest runs until the rest fits, never the current one, and logs each removal', async () => {
    const runs = path.join(await tempDir(), 'runs');
    await run(runs, 'r1-current-but-oldest', 400);
    await run(runs, 'r2', 300);
    await run(runs, 'r3', 200);
    await run(runs, 'r4', 100);
    const log: string[] = [];
    const pruned = await pruneRuns(runs, 700 * KB, 'r1-current-but-oldest', (l) => log.push(l));
    expect(pruned.map((p) => p.runId)).toEqual(['r2', 'r3']);
    expect((await readdir(runs)).sort()).toEqual(['r1-current-but-oldest', 'r4']);
    expect(log).toHaveLength(2);
    expect(log[0]).toMatch(/^removed runs\/r2 \(\d+ bytes\), the oldest run: runs\/ is kept within runs_max_size/);
  });

  it('leaves runs/ alone when it fits, and a missing runs/ is no error', async () => {
    const dir = await tempDir();
    await run(path.join(dir, 'runs'), 'a', 10);
    expect(await pruneRuns(path.join(dir, 'runs'), 1024 * KB, null, () => undefined)).toEqual([]);
    expect(await readdir(path.join(dir, 'runs'))).toEqual(['a']);
    expect(await pruneRuns(path.join(dir, 'nothing'), 1, null, () => undefined)).toEqual([]);
  });
});
