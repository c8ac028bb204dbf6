// Helpers for the confinement tests: a PATH on which some programs (bwrap, socat) are missing, and running a shell
// command inside agent-collab's bubblewrap box.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BWRAP, bwrapArgs, type ConfinementSpec } from '../../../src/adapters/confinement/index.js';

/** A bin dir holding links to node and every program on PATH except `missing`; `PATH` is that dir alone. */
export function pathWithout(missing: string[]): { PATH: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ac-bin-'));
  const dirs = [path.dirname(process.execPath), ...(process.env.PATH ?? '/usr/bin:/bin').split(path.delimiter)];
  for (const from of dirs) {
    let names: string[];
    try {
      names = readdirSync(from);
    } catch {
      continue;
    }
    for (const name of names) {
      if (missing.includes(name)) continue;
      try {
        symlinkSync(path.join(from, name), path.join(dir, name));
      } catch {
        // an earlier PATH entry already has it
      }
    }
  }
  return {
    PATH: dir,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs `sh -c script` in the repo inside the box; its exit code and combined output. */
export function runBoxed(spec: ConfinementSpec, script: string, env: NodeJS.ProcessEnv = process.env) {
  const r = spawnSync(BWRAP, bwrapArgs(spec, 'sh', ['-c', `exec 2>&1\n${script}`]), {
    cwd: spec.repo,
    env,
    encoding: 'utf8',
  });
  return { code: r.status, output: r.stdout };
}

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** Everything git would show changed: HEAD, branch, all refs, worktrees, stash. */
export function gitSnapshot(dir: string): string {
  return [
    git(dir, 'rev-parse', 'HEAD'),
    git(dir, 'branch', '--show-current'),
    git(dir, 'for-each-ref'),
    git(dir, 'worktree', 'list', '--porcelain'),
    git(dir, 'stash', 'list'),
  ].join('\n');
}

export function mkdirs(...dirs: string[]): void {
  for (const d of dirs) mkdirSync(d, { recursive: true });
}
