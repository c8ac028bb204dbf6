// What an adapter needs to confine an agent's turn, and the check every confined process start goes through.
import { confinementError, probeConfinement } from './probe.js';

/** A turn that runs confined: the repo (the turn's cwd) and agent-collab's work dir, both absolute. */
export interface ConfinedTurn {
  repo: string;
  workdir: string;
}

/** `[safety] sandbox = "on"`: how the adapters confine write turns (and codex's read-only ones). */
export interface AgentConfinement {
  /** agent-collab's work dir (absolute): read-only to agents. */
  workdir: string;
  /** Null when confinement works right now, else the one-line error naming the fix. */
  check(): Promise<string | null>;
}

/** A probe that succeeded, kept for the process: each later one cost two process starts per turn and test run. */
let worked: Promise<string | null> | null = null;

/**
 * Null when confinement works, else the one-line error. Once it has worked it is not probed again: should bubblewrap
 * disappear mid-run, the box itself cannot start and the turn fails (it never runs unconfined).
 */
export function checkConfinement(): Promise<string | null> {
  if (worked) return worked;
  const probe = probeConfinement().then((c) => (c.available ? null : confinementError(c.reason)));
  void probe.then((problem) => {
    if (problem === null) worked = probe;
  });
  return probe;
}

export function agentConfinement(
  workdir: string,
  check: () => Promise<string | null> = checkConfinement,
): AgentConfinement {
  return { workdir, check };
}
