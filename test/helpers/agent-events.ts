// Reading an agent turn in tests: every event it yields, in order.
import type { AgentEvent } from '../../src/core/types.js';

export async function collect(stream: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const ev of stream) events.push(ev);
  return events;
}
