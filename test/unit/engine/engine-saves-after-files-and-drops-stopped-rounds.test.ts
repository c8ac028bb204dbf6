// The engine over in-memory ports: a transition's files are written before the state that follows is saved, the
// next round starts only after that save, and a stopped round's late answer or pending retry is dropped.
import { describe, expect, it } from 'vitest';
import type { EngineOutput } from '../../../src/core/events.js';
import type { StepWorkspace, WorkflowFiles } from '../../../src/core/ports.js';
import type { Agent, AgentEvent, AgentTurn, WorkflowState } from '../../../src/core/types.js';
import { Engine } from '../../../src/engine/runner.js';
import { OPTS, running } from '../../helpers/states.js';

/** Everything the engine does to the outside, in order. */
function ports(log: string[]) {
  const did = (line: string): Promise<void> => {
    log.push(line);
    return Promise.resolve();
  };
  const files: WorkflowFiles = {
    saveState: (s) => did(`save ${s.phase}${s.inflight ? ` ${s.inflight.kind}` : ''}`),
    readPlan: () => Promise.resolve('the plan'),
    readComments: () => Promise.resolve(null),
    writePlan: (body) => did(`write plan: ${body}`),
    writeComments: () => did('write comments'),
    setPlanStatus: (status) => did(`plan status ${status}`),
    readSteps: () => Promise.resolve([]),
    markStepDone: () => Promise.resolve(),
    markStepSkipped: () => Promise.resolve(),
    appendSteps: () => Promise.resolve(),
    acceptEdit: () => Promise.resolve(),
    changedOutside: () => Promise.resolve(false),
    resolveExternal: (_file, incoming) => Promise.resolve(incoming),
    appendLog: (title) => did(`log: ${title}`),
    archive: () => Promise.resolve('history/x'),
    debug: () => undefined,
  };
  const workspace: StepWorkspace = {
    snapshot: () => Promise.reject(new Error('no git here')),
    changedSince: () => Promise.reject(new Error('no git here')),
    reviewDiff: () => Promise.reject(new Error('no git here')),
    commitStep: () => Promise.reject(new Error('no git here')),
    rollback: () => Promise.reject(new Error('no git here')),
  };
  return { files, workspace, prompts: { render: (name: string) => Promise.resolve(`prompt ${name}`) } };
}

/** An agent whose turns are played by `play`; stop() is recorded and ends nothing by itself. */
function agent(
  name: string,
  log: string[],
  play: (turn: AgentTurn, stopped: Promise<void>) => AsyncIterable<AgentEvent>,
): Agent {
  let stop: () => void = () => undefined;
  return {
    name,
    start: (turn) => {
      log.push(`${name} starts ${turn.meta.kind}`);
      return play(turn, new Promise<void>((r) => (stop = r)));
    },
    resume: (_id, turn) => {
      log.push(`${name} resumes ${turn.meta.kind}`);
      return play(turn, new Promise<void>((r) => (stop = r)));
    },
    stop: () => {
      log.push(`${name} stopped`);
      stop();
      return Promise.resolve();
    },
  };
}

function engineFor(
  state: WorkflowState,
  log: string[],
  planner: Agent,
  retry?: { infraRetries: number; backoffMs: number },
) {
  const p = ports(log);
  const reviewer = agent('reviewer', log, async function* () {
    yield { type: 'done', sessionId: null, text: '[APPROVED]\nFine.' };
  });
  const engine = new Engine(state, { repoRoot: '/nowhere', ...p, agents: { planner, reviewer }, options: OPTS, retry });
  const outputs: EngineOutput[] = [];
  engine.subscribe((o) => outputs.push(o));
  return { engine, outputs };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}

describe('the engine', () => {
  it('writes the plan, then saves the state that follows, then starts the next round', async () => {
    const log: string[] = [];
    const planner = agent('planner', log, async function* () {
      yield { type: 'done', sessionId: null, text: '## Steps\n1. [ ] Do it\n' };
    });
    const { engine } = engineFor(running('WRITE_PLAN', { kind: 'write_plan' }, { mode: 'auto' }), log, planner);
    await engine.resume();
    await until(() => log.includes('reviewer starts review'));
    await engine.close();
    const plan = log.findIndex((l) => l.startsWith('write plan'));
    const save = log.findIndex((l) => l.startsWith('save REVIEW'));
    expect(plan).toBeGreaterThan(log.indexOf('planner starts write_plan'));
    expect(save).toBeGreaterThan(plan);
    expect(log.indexOf('reviewer starts review')).toBeGreaterThan(save);
  });

  it('drops the answer of a round that was stopped, even when the agent gives it after the stop', async () => {
    const log: string[] = [];
    const planner = agent('planner', log, async function* (_turn, stopped) {
      await stopped;
      yield { type: 'done', sessionId: null, text: 'a late plan' };
    });
    const { engine, outputs } = engineFor(
      running('WRITE_PLAN', { kind: 'write_plan' }, { mode: 'auto' }),
      log,
      planner,
    );
    void engine.resume();
    await until(() => log.includes('planner starts write_plan'));
    expect(await engine.dispatch({ type: 'stop' })).toBe(true);
    await engine.close();
    expect(engine.state.phase).toBe('REFINE_GOAL');
    expect(log.some((l) => l.startsWith('write plan'))).toBe(false);
    expect(outputs.filter((o) => o.type === 'rejected')).toEqual([]); // never dispatched, not merely rejected
  });

  it('ends a service-error retry that is waiting when the round is stopped, without trying again', async () => {
    const log: string[] = [];
    const planner = agent('planner', log, async function* () {
      yield { type: 'error', kind: 'infra', message: 'overloaded' };
    });
    const { engine, outputs } = engineFor(
      running('WRITE_PLAN', { kind: 'write_plan' }, { mode: 'auto' }),
      log,
      planner,
      { infraRetries: 3, backoffMs: 3_600_000 },
    );
    void engine.resume();
    // The round now waits for its first retry, an hour away.
    await until(() =>
      outputs.some(
        (o) => o.type === 'notice' && o.notice.kind === 'info' && o.notice.message.includes('retrying in 3600 s (1/3)'),
      ),
    );
    await engine.dispatch({ type: 'cancel' });
    await engine.close(); // settles at once: the wait was aborted
    expect(log.filter((l) => l === 'planner starts write_plan')).toHaveLength(1);
    expect(engine.state.phase).toBe('CANCELLED');
  });
});
