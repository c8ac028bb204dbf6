// The fake agents on their own: the same turns the engine launched, replayed straight into fresh FakeAgents
// and drained, with no engine around them. Their time is what the engine's wall time is corrected by.
import { performance } from 'node:perf_hooks';
import { FakeAgent } from '../src/adapters/fake/fake-agent.js';
import type { FakeScript } from '../src/adapters/fake/script.js';
import type { Role } from '../src/core/types.js';
import type { TurnLaunch } from './timed-agent.js';

/** Milliseconds each turn took on a bare agent, in the order given. */
export async function replayBare(turns: readonly TurnLaunch[], scripts: Record<Role, FakeScript>): Promise<number[]> {
  const agents: Record<Role, FakeAgent> = {
    planner: new FakeAgent('fake-planner', scripts.planner, { sessionPrefix: 'fake-planner' }),
    reviewer: new FakeAgent('fake-reviewer', scripts.reviewer, { sessionPrefix: 'fake-reviewer' }),
  };
  const times: number[] = [];
  for (const t of turns) {
    const agent = agents[t.turn.meta.role];
    const start = performance.now();
    const stream = t.method === 'resume' && t.sessionId ? agent.resume(t.sessionId, t.turn) : agent.start(t.turn);
    let done = false;
    for await (const ev of stream) if (ev.type === 'done') done = true;
    times.push(performance.now() - start);
    if (!done) throw new Error(`the bare ${t.turn.meta.role} did not finish its ${t.turn.meta.kind} turn`);
  }
  return times;
}
