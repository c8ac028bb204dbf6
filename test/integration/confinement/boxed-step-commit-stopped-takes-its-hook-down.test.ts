// A step commit running in the box and stopped while its hook hangs: the box goes down with everything in it (the
// hook has its own session inside the box, so only the box's pid namespace takes it), nothing is committed and no
// index lock is left. Real git, real bwrap.
import { existsSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { boxedWorkspace, preCommitHook } from '../../helpers/boxed-workspace.js';
import { tempRepo } from '../../helpers/repo.js';
import { git } from './helpers.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

/** Host pids of processes whose working directory is `dir` and whose command line is `sleep <marker>`. */
function sleepersIn(dir: string, marker: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (cmd[0]?.endsWith('sleep') && cmd[1] === marker && readlinkSync(`/proc/${pid}/cwd`) === dir)
        found.push(Number(pid));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('a boxed step commit stopped while its hook hangs', () => {
  it('takes the box down with the hook: nothing committed, no index lock left', async () => {
    const repo = tempRepo();
    cleanup = repo.cleanup;
    const marker = `100${process.pid}`;
    preCommitHook(repo.dir, `#!/bin/sh\nsleep ${marker} &\nwait\n`);
    const { ws } = boxedWorkspace(repo.dir);
    const base = await ws.snapshot();
    writeFileSync(path.join(repo.dir, 'a.txt'), 'step 1\n');

    const stop = new AbortController();
    const commit = ws.commitStep({
      runId: 'run-1',
      step: 1,
      summary: 'A',
      baseTree: base,
      allowSecrets: false,
      signal: stop.signal,
    });
    await until(() => sleepersIn(repo.dir, marker).length > 0);
    stop.abort();
    const r = await commit;
    expect(r.kind).toBe('failed');
    await until(() => sleepersIn(repo.dir, marker).length === 0);
    expect(existsSync(path.join(repo.dir, '.git', 'index.lock'))).toBe(false);
    expect(git(repo.dir, 'log', '--format=%s')).toBe('initial');
  }, 30_000);
});
