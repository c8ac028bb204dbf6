// The engine over in-memory ports writes a run's report when the run ends — cancelled (before the archive, its path
// then the archived one), stopped, closed on a run under way — and a report it cannot write is a notice, not an error.
import { describe, expect, it } from 'vitest';
import type { EngineOutput } from '../../../src/core/events.js';
import type { StepWorkspace, WorkflowFiles } from '../../../src/core/ports.js';
import type { RunReportWritten } from '../../../src/core/run-report.js';
import type { Agent, WorkflowState } from '../../../src/core/types.js';
import type { RunEnd, RunReports } from '../../../src/engine/run-report.js';
import { Engine } from '../../../src/engine/runner.js';
import { OPTS, stateIn } from '../../helpers/states.js';

const idle: Agent = {
  name: 'idle',
  // Never asked to play a turn in these tests: it would answer with nothing.
  start: async function* () {
    yield* [];
  },
  resume: async function* () {
    yield* [];
  },
  stop: () => Promise.resolve(),
};

function setup(state: WorkflowState, opts: { failWrite?: boolean } = {}) {
  const log: string[] = [];
  const files: WorkflowFiles = {
    saveState: (s) => Promise.resolve(void log.push(`save ${s.phase}`)),
    readPlan: () => Promise.resolve(null),
    readComments: () => Promise.resolve(null),
    writePlan: () => Promise.resolve(),
    writeComments: () => Promise.resolve(),
    setPlanStatus: () => Promise.resolve(),
    readSteps: () => Promise.resolve([]),
    markStepDone: () => Promise.resolve(),
    markStepSkipped: () => Promise.resolve(),
    appendSteps: () => Promise.resolve(),
    acceptEdit: () => Promise.resolve(),
    changedOutside: () => Promise.resolve(false),
    resolveExternal: (_file, incoming) => Promise.resolve(incoming),
    appendLog: (title) => Promise.resolve(void log.push(`log: ${title}`)),
    archive: () => Promise.resolve(void log.push('archive')).then(() => '/repo/.agent-collab/history/x'),
    debug: () => undefined,
  };
  const workspace: StepWorkspace = {
    snapshot: () => Promise.reject(new Error('no git here')),
    changedSince: () => Promise.reject(new Error('no git here')),
    reviewDiff: () => Promise.reject(new Error('no git here')),
    commitStep: () => Promise.reject(new Error('no git here')),
    rollback: () => Promise.reject(new Error('no git here')),
  };
  const ends: Array<{ phase: string } & RunEnd> = [];
  const reports: RunReports = {
    write: (s, end) => {
      log.push(`report ${end.ending}`);
      ends.push({ phase: s.phase, ...end });
      if (opts.failWrite) return Promise.reject(new Error('disk full'));
      const written: RunReportWritten = {
        status: 'FAILED',
        ending: end.ending,
        path: `/repo/.agent-collab/runs/${s.runId}/report.md`,
        stepsDone: 0,
        stepsTotal: 0,
        commits: 0,
        filesChanged: 0,
        tokens: 0,
        costUsd: 0,
        agentMinutes: 0,
      };
      return Promise.resolve(written);
    },
    archivedPath: (s, to) => `${to}/runs/${s.runId}/report.md`,
  };
  const engine = new Engine(state, {
    repoRoot: '/repo',
    files,
    workspace,
    prompts: { render: (name: string) => Promise.resolve(`prompt ${name}`) },
    agents: { planner: idle, reviewer: idle },
    options: OPTS,
    reports,
  });
  const outputs: EngineOutput[] = [];
  engine.subscribe((o) => outputs.push(o));
  return { engine, log, ends, outputs };
}

const types = (outputs: EngineOutput[]): string[] =>
  outputs.filter((o) => o.type === 'report' || o.type === 'finished' || o.type === 'error').map((o) => o.type);

describe('the engine writes the run report', () => {
  it('on cancel: after the log entry and before the archive; the event gives the archived path, then `finished`', async () => {
    const t = setup(stateIn('EXECUTE', { currentStep: 2 }));
    await t.engine.dispatch({ type: 'cancel' });
    expect(t.log).toEqual(['log: Run cancelled in EXECUTE', 'save CANCELLED', 'report cancelled', 'archive']);
    expect(t.ends).toMatchObject([
      { phase: 'CANCELLED', ending: 'cancelled', reason: 'Cancelled by the person in EXECUTE', step: 2 },
    ]);
    expect(types(t.outputs)).toEqual(['report', 'finished']);
    expect(t.outputs.find((o) => o.type === 'report')).toMatchObject({
      path: '/repo/.agent-collab/history/x/runs/run-1/report.md',
    });
  });

  it('on stop: the step under way is named; a stop during goal refinement writes none', async () => {
    const t = setup(stateIn('EXECUTE', { currentStep: 1, awaiting: null }));
    await t.engine.dispatch({ type: 'stop' });
    expect(t.ends).toMatchObject([{ phase: 'REFINE_GOAL', ending: 'stopped', step: 1 }]);
    expect(t.ends[0]?.reason).toMatch(/^Stopped in EXECUTE/);
    expect(types(t.outputs)).toEqual(['report']);

    const refining = setup(stateIn('REFINE_GOAL', { awaiting: { kind: 'goal' } }));
    await refining.engine.dispatch({ type: 'stop' });
    expect(refining.ends).toEqual([]);
  });

  it('when closed on a run under way (Ctrl+C): an interrupted report; none before a plan is worked on', async () => {
    const t = setup(stateIn('REVIEW', { currentStep: null }));
    const written = await t.engine.reportInterrupted();
    expect(written).toMatchObject({ ending: 'interrupted' });
    expect(t.ends).toMatchObject([
      { phase: 'REVIEW', ending: 'interrupted', reason: 'agent-collab was closed in REVIEW' },
    ]);
    expect(types(t.outputs)).toEqual(['report']);

    for (const phase of ['INIT', 'REFINE_GOAL', 'DONE', 'CANCELLED'] as const) {
      const none = setup(stateIn(phase));
      expect(await none.engine.reportInterrupted()).toBeNull();
      expect(none.ends).toEqual([]);
    }
  });

  it('a report that cannot be written is a notice; the run still ends as it would (no `error` output)', async () => {
    const t = setup(stateIn('EXECUTE'), { failWrite: true });
    await t.engine.dispatch({ type: 'cancel' });
    expect(types(t.outputs)).toEqual(['finished']);
    const notice = t.outputs.find(
      (o) => o.type === 'notice' && o.notice.kind === 'info' && /report/.test(o.notice.message),
    );
    expect(notice).toMatchObject({ notice: { message: 'could not write the run report: disk full' } });
    expect(t.log).toContain('archive');
  });
});
