// `agent-collab --version` next to a bare `node -e 0`, alternated in one run so machine noise hits both alike.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { goal, median, ms } from './stats.js';

/** The command as npm installs it (whatever it runs inside dist/), started the way a shell starts it. */
export const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/agent-collab');
const GOAL_RATIO = 2;
const RUNS = 15;

function timeOnce(file: string, args: string[], env: NodeJS.ProcessEnv): number {
  const t = performance.now();
  // cwd outside any git repo: --version must not look at one anyway
  const r = spawnSync(file, args, { cwd: os.tmpdir(), stdio: 'ignore', env });
  if (r.status !== 0) throw new Error(`${path.basename(file)} ${args.join(' ')} exited ${r.status}`);
  return performance.now() - t;
}

export function startupLines(): string[] {
  const env = { ...process.env };
  delete env.NODE_OPTIONS; // tsx's loader, when the bench runs under it
  const node: number[] = [];
  const version: number[] = [];
  const timeNode = (): number => timeOnce(process.execPath, ['-e', '0'], env);
  const timeVersion = (): number => timeOnce(BIN, ['--version'], env);
  for (let i = -1; i < RUNS; i++) {
    let n: number;
    let v: number;
    if (i % 2 === 0) {
      v = timeVersion();
      n = timeNode();
    } else {
      n = timeNode();
      v = timeVersion();
    }
    if (i < 0) continue; // warm-up round (file cache)
    node.push(n);
    version.push(v);
  }
  const ratio = median(version) / median(node);
  return [
    goal(
      `startup: agent-collab --version ${ms(median(version))} ms / node -e 0 ${ms(median(node))} ms = ${ratio.toFixed(2)}× (medians of ${RUNS}, alternated; goal ≤ ${GOAL_RATIO}×)`,
      ratio <= GOAL_RATIO,
    ),
  ];
}
