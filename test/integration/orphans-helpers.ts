// Finding what a killed agent-collab left running: every process it started carries its owner tag (recorded in
// `.agent-collab/owner-tag`) in its environment.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export function ownerTagOf(repoDir: string): string {
  return readFileSync(path.join(repoDir, '.agent-collab', 'owner-tag'), 'utf8').trim();
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Live processes whose environment carries `AGENT_COLLAB_OWNER=<tag>`. */
export function processesTagged(tag: string): number[] {
  const marker = `AGENT_COLLAB_OWNER=${tag}`;
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(marker) && alive(pid);
      } catch {
        return false;
      }
    });
}

/** The watchdog of the agent-collab tagged `tag` (`node -e <script> <tag> AGENT_COLLAB_OWNER`). */
export function watchdogOf(tag: string): number | null {
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'latin1').split('\0');
      if (argv[1] === '-e' && argv[3] === tag && argv[4] === 'AGENT_COLLAB_OWNER') return Number(name);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` holds; false if it still does not after `ms`. */
export async function eventually(check: () => boolean, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await pause(50);
  }
  return check();
}

export function sizeOf(file: string): number {
  return existsSync(file) ? statSync(file).size : 0;
}

/** Whether `file` grows within `ms` (a writer still running appends a line every 100 ms). */
export async function grows(file: string, ms = 1_500): Promise<boolean> {
  const before = sizeOf(file);
  return eventually(() => sizeOf(file) > before, ms);
}

export function killAll(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}
