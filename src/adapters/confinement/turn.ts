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

/** Probes the machine each time: a bubblewrap removed mid-run must stop the next write turn, not let it run free. */
export async function checkConfinement(): Promise<string | null> {
  const c = await probeConfinement();
  return c.available ? null : confinementError(c.reason);
}

export function agentConfinement(
  workdir: string,
  check: () => Promise<string | null> = checkConfinement,
): AgentConfinement {
  return { workdir, check };
}
