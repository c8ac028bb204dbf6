// Signals and liveness checks for a whole process group (a CLI started detached and everything it spawned).
import { readdirSync, readFileSync } from 'node:fs';

export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: nobody left in the group
  }
}

/** `pgrp` and `state` of a /proc/<pid>/stat line; null when it cannot be read (gone meanwhile). */
function procStat(pid: string): { pgrp: number; state: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // state ppid pgrp …
    return { state: fields[0] ?? '', pgrp: Number(fields[2]) };
  } catch {
    return null;
  }
}

/**
 * Whether some member of the group is still running. Zombies do not count: they are dead, only not yet reaped
 * (in containers whose init reaps slowly, signal 0 would report them alive for a while).
 */
export function groupAlive(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return true; // no /proc: trust signal 0
  }
  return pids.some((pid) => {
    const stat = procStat(pid);
    return stat !== null && stat.pgrp === pgid && stat.state !== 'Z';
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** SIGTERM to the group, then SIGKILL when someone in it is still running after `graceMs`. */
export async function terminateGroup(pgid: number, graceMs: number): Promise<void> {
  if (!groupAlive(pgid) || !signalGroup(pgid, 'SIGTERM')) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await sleep(25);
    if (!groupAlive(pgid)) return;
  }
  signalGroup(pgid, 'SIGKILL');
  for (let i = 0; i < 100 && groupAlive(pgid); i++) await sleep(10);
}
