// At start, before anything runs: processes an earlier agent-collab in this work dir left running (its watchdog
// was killed too, or the machine was too busy for it) are ended, and this process's tag is recorded for the next
// start. Only processes carrying the earlier run's random tag in their environment are touched (and the groups
// such a process leads), so a forged or stale record can hit nothing else.
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeAtomic } from '../persistence/atomic-write.js';
import { OWNER_ENV, ownerTag } from './owned-processes.js';

/** Where the tag of the agent-collab holding the work dir's lock is recorded. */
export const OWNER_RECORD = 'owner-tag';
const TAG = /^\d+-[0-9a-f]{24}$/;
const TERM_GRACE_MS = 2_000;
const KILL_WAIT_MS = 3_000;

interface ProcInfo {
  pid: number;
  pgrp: number;
  state: string;
  command: string;
}

function procInfo(pid: number): ProcInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const command = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim().slice(0, 120);
    return { pid, state: fields[0] ?? '', pgrp: Number(fields[2]), command };
  } catch {
    return null;
  }
}

function allPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .map(Number);
  } catch {
    return []; // no /proc: nothing can be found (the watchdog was the only guard)
  }
}

function carries(pid: number, marker: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(marker);
  } catch {
    return false;
  }
}

/** Live processes left by the run tagged `tag`: those carrying it, and the members of groups one of them leads. */
export function leftBy(tag: string): ProcInfo[] {
  const marker = `${OWNER_ENV}=${tag}`;
  const infos = allPids()
    .filter((pid) => pid !== process.pid)
    .map(procInfo)
    .filter((p): p is ProcInfo => p !== null && p.state !== 'Z');
  const tagged = new Set(infos.filter((p) => carries(p.pid, marker)).map((p) => p.pid));
  // A group whose leader is tagged was started by that run; its members may have dropped their environment.
  const ledGroups = new Set(infos.filter((p) => tagged.has(p.pid) && p.pgrp === p.pid).map((p) => p.pid));
  return infos.filter((p) => tagged.has(p.pid) || (p.pgrp > 1 && ledGroups.has(p.pgrp)));
}

function signalAll(procs: ProcInfo[], signal: NodeJS.Signals): void {
  for (const p of procs) {
    try {
      process.kill(p.pid, signal);
    } catch {
      // gone meanwhile
    }
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function waitGone(tag: string, ms: number): Promise<ProcInfo[]> {
  const deadline = Date.now() + ms;
  let left = leftBy(tag);
  while (left.length > 0 && Date.now() < deadline) {
    await sleep(50);
    left = leftBy(tag);
  }
  return left;
}

export interface ReapResult {
  /** What was still running and has been ended (`pid N: command`). */
  ended: string[];
  /** What could not be ended (still alive after SIGKILL). */
  survivors: string[];
}

/**
 * Ends what the run recorded in `<workdir>/owner-tag` left running (SIGTERM, then SIGKILL), waits until it is gone,
 * then records this process's tag there. Call it holding the work dir's instance lock.
 */
export async function reapOrphans(workdir: string): Promise<ReapResult> {
  const record = path.join(workdir, OWNER_RECORD);
  const previous = (await readFile(record, 'utf8').catch(() => '')).trim();
  const result: ReapResult = { ended: [], survivors: [] };
  if (TAG.test(previous) && previous !== ownerTag()) {
    const found = leftBy(previous);
    if (found.length > 0) {
      signalAll(found, 'SIGTERM');
      const stubborn = await waitGone(previous, TERM_GRACE_MS);
      signalAll(stubborn, 'SIGKILL');
      const survivors = await waitGone(previous, KILL_WAIT_MS);
      const describe = (p: ProcInfo): string => `pid ${p.pid}: ${p.command}`;
      const alive = new Set(survivors.map((p) => p.pid));
      result.ended = found.filter((p) => !alive.has(p.pid)).map(describe);
      result.survivors = survivors.map(describe);
    }
  }
  await writeAtomic(record, `${ownerTag()}\n`, { durable: false });
  return result;
}
