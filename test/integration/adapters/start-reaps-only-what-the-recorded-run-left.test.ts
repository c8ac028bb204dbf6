// The reap at start ends exactly what the run recorded in the work dir left: processes carrying its tag and the
// members of groups such a process leads; a process without the tag, or a record naming no live tag, is left alone.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OWNER_ENV, ownerTag } from '../../../src/adapters/owned-processes.js';
import { OWNER_RECORD, reapOrphans } from '../../../src/adapters/reap-orphans.js';
import { eventually, killAll } from '../orphans-helpers.js';
import { isAlive } from './process-helpers.js';

const OLD_TAG = `4242-${'ab'.repeat(12)}`;
const started: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  killAll(started.splice(0).map((c) => c.pid!));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function workdir(record: string | null): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ac-reap-'));
  dirs.push(dir);
  if (record !== null) writeFileSync(path.join(dir, OWNER_RECORD), `${record}\n`);
  return dir;
}

/** `sleep 1000` with the given environment; `leader`: in a new group it leads, with an untagged member. */
function sleeper(env: NodeJS.ProcessEnv, leader = false): { pid: number; member?: number } {
  const script = leader ? 'env -i sleep 1000 & echo $!; exec sleep 1000' : 'exec sleep 1000';
  const child = spawn('/bin/sh', ['-c', script], { env, detached: leader, stdio: ['ignore', 'pipe', 'ignore'] });
  started.push(child);
  return { pid: child.pid! };
}

async function memberOf(child: { pid: number }): Promise<number> {
  const proc = started.find((c) => c.pid === child.pid)!;
  const line = await new Promise<string>((resolve) => proc.stdout!.once('data', (d: Buffer) => resolve(String(d))));
  const member = Number(line.trim());
  started.push({ pid: member } as ChildProcess);
  return member;
}

const untagged = { PATH: process.env.PATH };
const tagged = { PATH: process.env.PATH, [OWNER_ENV]: OLD_TAG };

describe('the reap at start', () => {
  it('ends the recorded run’s tagged processes and the untagged members of the groups they lead, nothing else', async () => {
    const mine = sleeper(tagged);
    const leader = sleeper(tagged, true);
    const member = await memberOf(leader);
    const stranger = sleeper(untagged);
    const dir = workdir(OLD_TAG);

    const r = await reapOrphans(dir);

    expect(await eventually(() => !isAlive(mine.pid) && !isAlive(leader.pid) && !isAlive(member))).toBe(true);
    expect(isAlive(stranger.pid)).toBe(true);
    expect(r.ended).toHaveLength(3);
    expect(r.survivors).toEqual([]);
    expect(readFileSync(path.join(dir, OWNER_RECORD), 'utf8').trim()).toBe(ownerTag());
  });

  it('a record naming no live tag, a malformed one or none ends nothing and records this run', async () => {
    const stranger = sleeper(tagged);
    for (const record of [`4243-${'cd'.repeat(12)}`, 'not a tag', null]) {
      const dir = workdir(record);
      expect(await reapOrphans(dir)).toEqual({ ended: [], survivors: [] });
      expect(readFileSync(path.join(dir, OWNER_RECORD), 'utf8').trim()).toBe(ownerTag());
    }
    expect(isAlive(stranger.pid)).toBe(true);
  });
});
