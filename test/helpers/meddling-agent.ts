// A fake reviewer that meddles with the repo's files while its turn runs (e.g. deletes `.agent-collab/`), for the
// tests of agent-collab's own files changed behind the run's back (issue 18, item 11).
import { FakeAgent } from '../../src/adapters/fake/fake-agent.js';
import type { Agent, AgentEvent, AgentTurn } from '../../src/core/types.js';

/** Does `meddle` as its review turn starts, then answers with `verdict` as the fake agent does. */
export function meddlingReviewer(
  meddle: () => void,
  verdict: 'APPROVED' | 'CHANGES_REQUIRED' = 'APPROVED',
): Agent & { turns: FakeAgent['turns'] } {
  const fake = new FakeAgent('reviewer', { rules: [{ when: { kind: 'review' }, do: { verdict } }] });
  const play = async function* (events: AsyncIterable<AgentEvent>): AsyncIterable<AgentEvent> {
    meddle();
    yield* events;
  };
  return {
    name: 'meddler',
    turns: fake.turns,
    start: (turn: AgentTurn) => play(fake.start(turn)),
    resume: (id: string, turn: AgentTurn) => play(fake.resume(id, turn)),
    stop: () => fake.stop(),
  };
}
