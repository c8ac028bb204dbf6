// agent-collab's own startup next to a bare `node -e 0`, measured side by side in one run.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { median, ms } from './stats.js';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');

function timeOnce(args: string[], cwd: string, expectStatus = 0): number {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { cwd, stdio: 'ignore' });
  if (r.status !== expectStatus) throw new Error(`node ${args.join(' ')} exited ${r.status}`);
  return performance.now() - t;
}

export interface StartupResult {
  nodeMs: number;
  versionMs: number;
  runMs: number;
}

/** `cwd` must not be inside a git repo. Alternates the commands `runs` times so that machine noise hits them alike; medians. */
export function measureStartup(cwd: string, runs = 15): StartupResult {
  const node: number[] = [];
  const version: number[] = [];
  const run: number[] = [];
  for (let i = 0; i < runs; i++) {
    node.push(timeOnce(['-e', '0'], cwd));
    version.push(timeOnce([CLI, '--version'], cwd));
    // `run` outside a git repo loads the run mode's modules, asks git and exits 2: what every run pays before any work
    run.push(timeOnce([CLI, 'run', '--goal', 'x'], cwd, 2));
  }
  return { nodeMs: median(node), versionMs: median(version), runMs: median(run) };
}

export function startupLines(r: StartupResult): string[] {
  return [
    `startup: node -e 0 ${ms(r.nodeMs)} ms; agent-collab --version ${ms(r.versionMs)} ms (${(r.versionMs / r.nodeMs).toFixed(2)}×); ` +
      `agent-collab run up to its first check ${ms(r.runMs)} ms (${(r.runMs / r.nodeMs).toFixed(2)}×)`,
  ];
}
