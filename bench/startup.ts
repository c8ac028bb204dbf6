// agent-collab's own startup next to a bare `node -e 0`, measured side by side in one run.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { median, ms } from './stats.js';

/** The agent-collab command as npm installs it (it runs dist/cli.js with the node on PATH). */
const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/agent-collab');

function timeOnce(file: string, args: string[], cwd: string, expectStatus = 0, env: NodeJS.ProcessEnv = process.env): number {
  const t = performance.now();
  const r = spawnSync(file, args, { cwd, stdio: 'ignore', env });
  if (r.status !== expectStatus) throw new Error(`${path.basename(file)} ${args.join(' ')} exited ${r.status}`);
  return performance.now() - t;
}

export interface StartupResult {
  nodeMs: number;
  versionMs: number;
  runMs: number;
  /** `run --goal` in a git repo, from spawn to the moment the first agent process starts. */
  firstSpawnMs: number;
  /** The same without the compile cache (every start compiles the bundle anew). */
  firstSpawnColdMs: number;
}

/**
 * A scratch git repo whose agents are a stub that notes when it started (`$EPOCHREALTIME`) and exits without an
 * answer, so `run` does all its real startup work (config, lock, state, git) up to the first agent spawn.
 */
function firstSpawnRepo(parent: string): { dir: string; stamp: string; reset(): void } {
  const dir = mkdtempSync(path.join(parent, 'agent-collab-startup-'));
  const git = (...args: string[]) => spawnSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@agent-collab.invalid', 'commit', '-q', '--allow-empty', '-m', 'initial');
  const stub = path.join(dir, 'agent-stub');
  const stamp = path.join(dir, 'agent-started');
  writeFileSync(stub, `#!/bin/bash\necho "$EPOCHREALTIME" > '${stamp}'\n`);
  chmodSync(stub, 0o755);
  const work = path.join(dir, '.agent-collab');
  const config = ['[agents.codex]', `command = ${JSON.stringify(stub)}`, '[agents.claude]', `command = ${JSON.stringify(stub)}`, '[retry]', 'infra_retries = 0', ''].join('\n');
  const reset = (): void => {
    rmSync(work, { recursive: true, force: true });
    rmSync(stamp, { force: true });
    mkdirSync(work);
    writeFileSync(path.join(work, 'config.toml'), config);
  };
  return { dir, stamp, reset };
}

/** Milliseconds from spawning `run` to its first agent process starting (the agent fails; exit 4 expected). */
function timeToFirstSpawn(repo: ReturnType<typeof firstSpawnRepo>, env: NodeJS.ProcessEnv): number {
  repo.reset();
  const t = performance.timeOrigin + performance.now();
  const r = spawnSync(BIN, ['run', '--goal', 'x', '--auto', '--json'], { cwd: repo.dir, stdio: 'ignore', env });
  if (r.status !== 4) throw new Error(`run with a stub agent exited ${r.status}, expected 4 (agent failed)`);
  return Number(readFileSync(repo.stamp, 'utf8').trim()) * 1000 - t;
}

/**
 * `cwd` must not be inside a git repo. agent-collab keeps its compile cache in a directory of this measurement's own,
 * written by one unmeasured round first (as by a person's earlier runs); the first spawn is also measured without it.
 * Alternates the commands `runs` times so that machine noise hits them alike; medians.
 */
export function measureStartup(cwd: string, runs = 15): StartupResult {
  const node: number[] = [];
  const version: number[] = [];
  const run: number[] = [];
  const spawned: number[] = [];
  const cold: number[] = [];
  const repo = firstSpawnRepo(cwd);
  const cacheDir = mkdtempSync(path.join(cwd, 'agent-collab-compile-cache-'));
  const warm = { ...process.env, AGENT_COLLAB_CACHE_DIR: cacheDir };
  const off = { ...process.env, AGENT_COLLAB_CACHE_DIR: '0' };
  try {
    for (let i = -1; i < runs; i++) {
      const n = timeOnce(process.execPath, ['-e', '0'], cwd);
      const v = timeOnce(BIN, ['--version'], cwd, 0, warm);
      // `run` outside a git repo loads the run mode's modules, asks git and exits 2: what every run pays before any work
      const r = timeOnce(BIN, ['run', '--goal', 'x'], cwd, 2, warm);
      const s = timeToFirstSpawn(repo, warm);
      const c = timeToFirstSpawn(repo, off);
      if (i < 0) continue; // the round that wrote the caches
      node.push(n);
      version.push(v);
      run.push(r);
      spawned.push(s);
      cold.push(c);
    }
  } finally {
    rmSync(repo.dir, { recursive: true, force: true });
    rmSync(cacheDir, { recursive: true, force: true });
  }
  return { nodeMs: median(node), versionMs: median(version), runMs: median(run), firstSpawnMs: median(spawned), firstSpawnColdMs: median(cold) };
}

export function startupLines(r: StartupResult): string[] {
  const certs = process.env.NODE_EXTRA_CA_CERTS
    ? [`  (NODE_EXTRA_CA_CERTS is set here: node -e 0 parses that bundle at every start; bin/agent-collab starts node without it and gives it back to what it runs)`]
    : [];
  return [
    `startup: node -e 0 ${ms(r.nodeMs)} ms; agent-collab --version ${ms(r.versionMs)} ms (${(r.versionMs / r.nodeMs).toFixed(2)}×); ` +
      `agent-collab run up to its first check ${ms(r.runMs)} ms (${(r.runMs / r.nodeMs).toFixed(2)}×); ` +
      `run up to its first agent spawn ${ms(r.firstSpawnMs)} ms (${(r.firstSpawnMs / r.nodeMs).toFixed(2)}×)`,
    `  (with the compile cache a first start of each kind leaves; without it the first spawn takes ${ms(r.firstSpawnColdMs)} ms)`,
    ...certs,
  ];
}
