// Wraps an Agent and records when the engine launches each turn (the moment it calls start/resume).
import { performance } from 'node:perf_hooks';
import type { Agent, AgentEvent, AgentTurn } from '../src/core/types.js';

export interface TurnLaunch {
  at: number;
  method: 'start' | 'resume';
  sessionId: string | null;
  turn: AgentTurn;
}

export class TimedAgent implements Agent {
  constructor(
    private readonly inner: Agent,
    private readonly launches: TurnLaunch[],
  ) {}

  get name(): string {
    return this.inner.name;
  }

  start(turn: AgentTurn): AsyncIterable<AgentEvent> {
    this.launches.push({ at: performance.now(), method: 'start', sessionId: null, turn });
    return this.inner.start(turn);
  }

  resume(sessionId: string, turn: AgentTurn): AsyncIterable<AgentEvent> {
    this.launches.push({ at: performance.now(), method: 'resume', sessionId, turn });
    return this.inner.resume(sessionId, turn);
  }

  stop(): Promise<void> {
    return this.inner.stop();
  }
}
