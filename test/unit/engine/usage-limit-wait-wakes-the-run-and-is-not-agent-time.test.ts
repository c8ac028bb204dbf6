// The engine's reset timer (fake timers and clock): a run parked at a usage limit runs the same round again at the
// wake-up time by itself, the hour parked is not agent time for [budget] max_minutes, a resumed run waits only the
// rest, and closing or stopping the run clears the timer so nothing keeps the process alive.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WorkflowFiles } from '../../../src/core/ports.js';
import type { Agent, AgentEvent, WorkflowState } from '../../../src/core/types.js';
import { Engine } from '../../../src/engine/runner.js';
import { NO_GIT_WORKSPACE, quietFiles } from '../../helpers/quiet-ports.js';
import { OPTS, running } from '../../helpers/states.js';

const NOW = new Date('2026-11-26T13:00:00.000Z');
const HOUR = 3_600_000;
const ROUND_MS = 5_000;
const RESET = new Date(NOW.getTime() + ROUND_MS + HOUR).toISOString();
const WAKE = new Date(Date.parse(RESET) + 30_000).toISOString();

function files(saved: WorkflowState[]): WorkflowFiles {
  return quietFiles({
    saveState: (s) => {
      saved.push(s);
      return Promise.resolve();
    },
    readSteps: () => Promise.resolve([{ n: 1, title: 'one', done: false }]),
  });
}

const workspace = NO_GIT_WORKSPACE;

/** A reviewer whose every turn works ROUND_MS; the first one ends in a usage limit resetting at RESET. */
function reviewer(turns: string[]): Agent {
  async function* play(): AsyncGenerator<AgentEvent> {
    turns.push(new Date().toISOString());
    await new Promise((r) => setTimeout(r, ROUND_MS));
    if (turns.length === 1)
      yield { type: 'error', kind: 'usage_limit', message: 'usage limit reached', resetAt: RESET };
    else yield { type: 'done', sessionId: null, text: '[APPROVED]\nFine.' };
  }
  return { name: 'reviewer', start: play, resume: play, stop: () => Promise.resolve() };
}

const idle: Agent = {
  name: 'planner',
  start: () => {
    throw new Error('the planner has nothing to do here');
  },
  resume: () => {
    throw new Error('the planner has nothing to do here');
  },
  stop: () => Promise.resolve(),
};

function engineAt(state: WorkflowState, turns: string[], saved: WorkflowState[] = []): Engine {
  return new Engine(state, {
    repoRoot: '/nowhere',
    files: files(saved),
    workspace,
    prompts: { render: (name: string) => Promise.resolve(`prompt ${name}`) },
    agents: { planner: idle, reviewer: reviewer(turns) },
    options: {
      ...OPTS,
      budget: { tokens: 0, cost: 0, minutes: 1 },
      limits: { waitForReset: true, maxWaitMinutes: 360 },
    },
  });
}

const reviewing = (): WorkflowState => running('REVIEW', { kind: 'review' }, { mode: 'auto' });

afterEach(() => vi.useRealTimers());

describe('a run parked at a usage limit', () => {
  it('runs the round again at the wake-up time by itself; the hour parked is not agent time', async () => {
    vi.useFakeTimers({ now: NOW });
    const turns: string[] = [];
    const saved: WorkflowState[] = [];
    const engine = engineAt(reviewing(), turns, saved);
    await engine.resume();
    await vi.advanceTimersByTimeAsync(ROUND_MS);
    expect(engine.state.awaiting).toMatchObject({ kind: 'usage_limit', resetAt: RESET, until: WAKE });
    expect(saved.at(-1)?.awaiting).toMatchObject({ kind: 'usage_limit', until: WAKE });
    expect(vi.getTimerCount()).toBe(1);

    await vi.advanceTimersByTimeAsync(HOUR + 29_000);
    expect(turns).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(turns).toEqual([NOW.toISOString(), WAKE]);
    await vi.advanceTimersByTimeAsync(ROUND_MS);

    expect(engine.state).toMatchObject({ phase: 'APPROVED', iteration: 1, lastVerdict: 'APPROVED' });
    // Two rounds of 5 s each: the 1 h 30 s parked between them is not counted, so the 1-minute cap is not reached.
    expect(engine.state.budget?.workedMs).toBe(2 * ROUND_MS);
    expect(engine.state.awaiting?.kind).not.toBe('budget');
    await engine.close();
  });

  it('resumed before the wake-up time, it waits only the rest; after it, it runs the round at once', async () => {
    vi.useFakeTimers({ now: new Date(Date.parse(WAKE) - 10_000) });
    const parked: WorkflowState = {
      ...reviewing(),
      inflight: null,
      awaiting: {
        kind: 'usage_limit',
        role: 'reviewer',
        message: 'usage limit reached',
        action: { kind: 'review' },
        resetAt: RESET,
        until: WAKE,
      },
    };
    const turns = ['the first, before the restart'];
    const engine = engineAt(parked, turns);
    await engine.resume();
    await vi.advanceTimersByTimeAsync(9_000);
    expect(turns).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(turns).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(ROUND_MS);
    expect(engine.state.lastVerdict).toBe('APPROVED');
    await engine.close();

    vi.setSystemTime(Date.parse(WAKE) + HOUR);
    const late = ['the first, before the restart'];
    const again = engineAt(parked, late);
    await again.resume();
    await vi.advanceTimersByTimeAsync(0);
    expect(late).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(ROUND_MS);
    await again.close();
  });

  it('closing the engine (Ctrl+C) or stopping the run clears the timer; the wait is in the saved state', async () => {
    vi.useFakeTimers({ now: NOW });
    const turns: string[] = [];
    const saved: WorkflowState[] = [];
    const engine = engineAt(reviewing(), turns, saved);
    await engine.resume();
    await vi.advanceTimersByTimeAsync(ROUND_MS);
    expect(vi.getTimerCount()).toBe(1);
    await engine.close();
    expect(vi.getTimerCount()).toBe(0);
    expect(saved.at(-1)?.awaiting).toMatchObject({ kind: 'usage_limit', until: WAKE });

    const other = engineAt(reviewing(), [], []);
    await other.resume();
    await vi.advanceTimersByTimeAsync(ROUND_MS);
    expect(other.state.awaiting?.kind).toBe('usage_limit');
    await other.dispatch({ type: 'decide', on: 'usage_limit', choice: 'stop' });
    expect(other.state.phase).toBe('REFINE_GOAL');
    expect(vi.getTimerCount()).toBe(0);
    await other.close();
  });
});
