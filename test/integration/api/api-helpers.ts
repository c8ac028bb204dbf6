// Shared by the library API's tests: temp repos whose agents are the fake ones (set through run()'s `config`, as a
// caller would), a user config dir of their own, and the volatile parts of events (times, hashes, run ids) masked
// so that two runs of one script compare equal.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { vi } from 'vitest';
import { tempRepo } from '../../helpers/repo.js';

export interface ApiRepo {
  dir: string;
  home: string;
  script: string;
  /** run()'s `config` that plays both roles with the fake agent on `script`. */
  config: { roles: { planner: 'fake'; reviewer: 'fake' }; fake: { script: string } };
  cleanup: () => void;
}

/** A temp repo and a fake script; the user's config dir is the temp home's (never the machine's). */
export function apiRepo(script: unknown): ApiRepo {
  const repo = tempRepo();
  const file = path.join(repo.home, 'script.json');
  writeFileSync(file, JSON.stringify(script));
  vi.stubEnv('XDG_CONFIG_HOME', path.join(repo.home, '.config'));
  return {
    ...repo,
    script: file,
    config: { roles: { planner: 'fake', reviewer: 'fake' }, fake: { script: file } },
    cleanup: () => {
      vi.unstubAllEnvs();
      repo.cleanup();
    },
  };
}

/** Masks what differs between two runs of one script in two repos: times, durations, hashes, ids, the repo's path. */
export function masked(value: unknown, repoDir: string, key = ''): unknown {
  if (typeof value === 'string')
    return value
      .split(repoDir)
      .join('<repo>')
      .replace(/\b[0-9a-f]{40}\b/g, '<sha>')
      .replace(/\b\d{14}-[0-9a-f]{6}\b/g, '<run id>')
      .replace(/\b(fake-(?:planner|reviewer))-[0-9a-f-]{8,}/g, '$1-<id>');
  if (typeof value === 'number' && /duration|ms$|minutes/i.test(key)) return '<time>';
  if (Array.isArray(value)) return value.map((v) => masked(v, repoDir));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== 'ts')
        .map(([k, v]) => [k, masked(v, repoDir, k)]),
    );
  return value;
}

/** Every /proc entry whose command line contains `marker` (processes left running). */
export async function processesWith(marker: string): Promise<string[]> {
  const { readdir, readFile } = await import('node:fs/promises');
  const found: string[] = [];
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const cmd = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmd.split('\0').join(' ').includes(marker)) found.push(`${pid}: ${cmd.split('\0').join(' ')}`);
  }
  return found;
}
