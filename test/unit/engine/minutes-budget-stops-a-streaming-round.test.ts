// [budget] max_minutes on the engine (fake timers): a round that streams on is told about 80% of the agents' time,
// and stopped at the cap, waiting with the budget question; the agent time it used is in the state.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EngineOutput } from '../../../src/core/events.js';
import type { Agent, AgentEvent } from '../../../src/core/types.js';
import type { CommandPolicy } from '../../../src/engine/command-gate.js';
import { Engine } from '../../../src/engine/runner.js';
import { NO_GIT_WORKSPACE, quietFiles } from '../../helpers/quiet-ports.js';
import { OPTS, running } from '../../helpers/states.js';

/** A planner that says one line and then works on until it is stopped. */
function streamingPlanner(stops: string[]): Agent {
  let stop: () => void = () => undefined;
  async function* play(): AsyncGenerator<AgentEvent> {
    const stopped = new Promise<void>((r) => (stop = r));
    yield { type: 'session', sessionId: 's-1' };
    yield { type: 'text', text: 'thinking about the plan…' };
    await stopped;
  }
  return {
    name: 'planner',
    start: play,
    resume: play,
    stop: () => {
      stops.push('planner');
      stop();
      return Promise.resolve();
    },
  };
}

afterEach(() => vi.useRealTimers());

/** An auto run writing its plan with `planner`, under a minutes cap; the reviewer never gets a turn. */
function planning(planner: Agent, minutes: number, commands?: CommandPolicy): Engine {
  return new Engine(running('WRITE_PLAN', { kind: 'write_plan' }, { mode: 'auto' }), {
    repoRoot: '/nowhere',
    files: quietFiles(),
    workspace: NO_GIT_WORKSPACE,
    prompts: { render: (name: string) => Promise.resolve(`prompt ${name}`) },
    agents: { planner, reviewer: { ...streamingPlanner([]), name: 'reviewer' } },
    options: { ...OPTS, budget: { tokens: 0, cost: 0, minutes } },
    ...(commands ? { commands } : {}),
  });
}

/** Holds every command for the person; nobody-answered denial only after an hour. */
const confirmAll: CommandPolicy = {
  ready: () => Promise.resolve(),
  evaluate: () => ({ decision: 'confirm', rule: 'discards work', reason: 'held in this test' }),
  allowedByPrefix: () => false,
  interactive: true,
  allowPrefixes: [],
  confirmTimeoutMs: 3_600_000,
};

describe('the minutes budget', () => {
  it('gives the 80% notice while a round streams and stops that round at the cap', async () => {
    vi.useFakeTimers();
    const stops: string[] = [];
    const engine = planning(streamingPlanner(stops), 1);
    const outputs: EngineOutput[] = [];
    engine.subscribe((o) => outputs.push(o));
    const budgetNotices = () =>
      outputs.flatMap((o) => (o.type === 'notice' && o.notice.kind === 'budget' ? [o.notice] : []));
    await engine.resume();

    await vi.advanceTimersByTimeAsync(47_000);
    expect(budgetNotices()).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(budgetNotices()).toEqual([expect.objectContaining({ budget: 'minutes', reached: false })]);
    expect(engine.state.inflight).toEqual({ kind: 'write_plan' });

    await vi.advanceTimersByTimeAsync(12_000);
    expect(budgetNotices()[1]).toMatchObject({ budget: 'minutes', reached: true });
    expect(stops).toContain('planner');
    expect(engine.state.inflight).toBeNull();
    expect(engine.state.awaiting).toMatchObject({ kind: 'budget', budget: 'minutes', action: { kind: 'write_plan' } });
    expect(engine.state.budget?.workedMs).toBe(60_000);
    await engine.close();
  });

  it('does not count the time a held command waits on the person', async () => {
    vi.useFakeTimers();
    const engine = planning(streamingPlanner([]), 1, confirmAll);
    await engine.resume();
    await vi.advanceTimersByTimeAsync(10_000);
    const verdict = engine.checkCommand({ role: 'planner', command: 'git reset --hard', cwd: '/nowhere' });
    await vi.advanceTimersByTimeAsync(0);
    const held = engine.state.pendingCommand;
    expect(held?.command).toBe('git reset --hard');

    // Five minutes of the person thinking: five times the cap, and the round goes on.
    await vi.advanceTimersByTimeAsync(300_000);
    expect(engine.state.awaiting).toBeNull();
    expect(engine.state.inflight).toEqual({ kind: 'write_plan' });
    await engine.dispatch({ type: 'decide', on: 'command', id: held?.id ?? '', choice: 'allow-once' });
    await expect(verdict).resolves.toEqual({ allow: true });

    // The cap comes after 60 s of working time: 10 s before the hold and 50 s after it.
    await vi.advanceTimersByTimeAsync(49_000);
    expect(engine.state.awaiting).toBeNull();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(engine.state.awaiting).toMatchObject({ kind: 'budget', budget: 'minutes' });
    expect(engine.state.budget?.workedMs).toBeGreaterThanOrEqual(60_000);
    expect(engine.state.budget?.workedMs).toBeLessThan(62_000);
    await engine.close();
  });

  it('counts the agent time of a round the person interrupted (Esc): the agent worked until then all the same', async () => {
    vi.useFakeTimers();
    const engine = planning(streamingPlanner([]), 10);
    await engine.resume();
    await vi.advanceTimersByTimeAsync(30_000);
    await engine.dispatch({ type: 'interrupt' });
    await vi.advanceTimersByTimeAsync(0);
    expect(engine.state.awaiting).toMatchObject({ kind: 'interrupted', role: 'planner' });
    expect(engine.state.budget?.workedMs).toBe(30_000);
    await engine.close();
  });
});
