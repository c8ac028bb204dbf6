// Everything agent-collab starts is marked and watched, so nothing outlives it, not even after a SIGKILL:
// - every child gets AGENT_COLLAB_OWNER=<this process's random tag> in its environment, which its own children
//   inherit (tool shells, test runners, git hooks), so they can be found in /proc whatever group they moved to;
// - a watchdog process (one per agent-collab, in a session of its own) holds the read end of a pipe whose write
//   end only agent-collab holds. When agent-collab dies, however it dies, the pipe reaches EOF and the watchdog
//   kills the groups it was told about and every process carrying the tag, then exits.
// The next start reaps what a killed watchdog left (reap-orphans.ts, from the tag recorded in the work dir).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { signalGroup } from './process-group.js';
import { WATCHDOG_SCRIPT } from './watchdog-script.js';

export const OWNER_ENV = 'AGENT_COLLAB_OWNER';

let tag: string | null = null;

/**
 * This process's tag (made on first use). It is also put into this process's own environment, so that children
 * started by any means (a shell command of the fake agent, a hook) carry it too.
 */
export function ownerTag(): string {
  if (tag === null) {
    tag = `${process.pid}-${randomBytes(12).toString('hex')}`;
    process.env[OWNER_ENV] = tag;
  }
  return tag;
}

/** `env` with this process's tag added: for children started with an environment of their own. */
export function withOwnerTag(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, [OWNER_ENV]: ownerTag() };
}

/** `env` without any owner tag: for what the person starts through agent-collab (their editor), which is theirs. */
export function withoutOwnerTag(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { [OWNER_ENV]: _tag, ...rest } = env;
  return rest;
}

/** Groups still running, with how long each may take to end after SIGTERM (0: SIGKILL at once). */
const liveGroups = new Map<number, number>();
let watchdog: ChildProcess | null = null;
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A plain exit (or an uncaught error) that did not stop them: the watchdog would too, this is sooner. Groups
  // with a grace (git) get SIGTERM so git removes its lock files; the watchdog sends SIGKILL after the grace.
  process.on('exit', () => {
    for (const [pgid, grace] of liveGroups) signalGroup(pgid, grace > 0 ? 'SIGTERM' : 'SIGKILL');
  });
}

function tell(line: string): void {
  const dog = ensureWatchdog();
  dog?.stdin?.write(`${line}\n`);
}

function ensureWatchdog(): ChildProcess | null {
  if (watchdog !== null) return watchdog;
  let dog: ChildProcess;
  try {
    // Its own session: Ctrl+C and a closed terminal reach agent-collab's group, not the watchdog. NODE_OPTIONS
    // is dropped so a loader of the parent (a test runner's) does not slow its start.
    dog = spawn(process.execPath, ['-e', WATCHDOG_SCRIPT, ownerTag(), OWNER_ENV], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
      env: { ...process.env, NODE_OPTIONS: '' },
    });
  } catch {
    return null; // cannot start one: the exit hook and the reap at the next start remain
  }
  watchdog = dog;
  const forget = (): void => {
    if (watchdog === dog) watchdog = null; // gone (killed by someone): the next spawn starts a new one
  };
  dog.once('error', forget);
  dog.once('exit', forget);
  dog.stdin?.on('error', forget);
  // Neither the watchdog nor its pipe may keep agent-collab's event loop alive.
  dog.unref();
  (dog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  for (const [pgid, grace] of liveGroups) dog.stdin?.write(`+${pgid} ${grace}\n`);
  return dog;
}

/** Starts the watchdog now (at session start), so it already runs when the first child does. */
export function startWatchdog(): void {
  ensureWatchdog();
}

/**
 * Puts a just-started process group under watch. `graceMs`: how long it may take to end after SIGTERM when
 * agent-collab dies (git removes its lock files on SIGTERM); 0 kills it at once. Returns the release, to call
 * once the group is gone.
 */
export function adoptGroup(pgid: number, graceMs: number): () => void {
  if (!Number.isInteger(pgid) || pgid <= 1) return () => undefined; // kill(-1) would be every process
  installExitHook();
  liveGroups.set(pgid, graceMs);
  tell(`+${pgid} ${graceMs}`);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    liveGroups.delete(pgid);
    if (watchdog !== null) tell(`-${pgid}`);
  };
}
