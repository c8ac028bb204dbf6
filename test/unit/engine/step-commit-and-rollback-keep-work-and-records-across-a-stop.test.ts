// agent-collab's own step work around a stop: tests that were about to start do not start, a rollback never
// restores the files before the step's patch is saved, and a commit or rollback git has done is recorded even when
// the round was stopped meanwhile.
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../../src/core/events.js';
import type { Artifacts, StepWorkspace, TestRunner, WorkflowFiles } from '../../../src/core/ports.js';
import type { Action, StepRun, WorkflowState } from '../../../src/core/types.js';
import type { EngineCommandGate } from '../../../src/engine/command-gate.js';
import type { EngineContext } from '../../../src/engine/context.js';
import { RunRecords } from '../../../src/engine/run-records.js';
import { WorkClock } from '../../../src/engine/work-clock.js';
import { StepExecutor } from '../../../src/engine/step-executor.js';
import { running } from '../../helpers/states.js';

const STEP_RUN: StepRun = {
  step: 1,
  attempt: 1,
  baseTree: 'base-tree',
  startedAt: '2026-01-01T00:00:00.000Z',
  testCommand: 'npm test',
  denials: 0,
  summary: 'add greet()',
  feedback: null,
  testResult: 'passed',
  tokensAtStart: 0,
  costAtStart: 0,
};

interface Setup {
  workspace?: Partial<StepWorkspace>;
  artifacts?: Partial<Artifacts>;
  tests?: Partial<TestRunner>;
}

/** A StepExecutor over in-memory ports; `log` gets everything done to the outside, in order. */
function executor(action: Action, setup: Setup = {}) {
  const log: string[] = [];
  let state: WorkflowState = running('EXECUTE', action, { stepRun: STEP_RUN });
  const files = {
    appendLog: (title: string, lines: string[] = []) => {
      log.push(`log.md: ${title}${lines.length ? ` [${lines.join('; ')}]` : ''}`);
      return Promise.resolve();
    },
    debug: (_source: string, line: string) => void log.push(`debug: ${line}`),
  } as Partial<WorkflowFiles> as WorkflowFiles; // the executor only logs
  const artifacts: Artifacts = {
    attemptDir: () => Promise.resolve('/runs/step-1/attempt-1'),
    write: (_s, _a, name) => {
      log.push(`write ${name}`);
      return Promise.resolve();
    },
    keep: (_s, _a, name) => {
      log.push(`keep ${name}`);
      return Promise.resolve();
    },
    appendEvent: () => undefined,
    timeline: (line) => {
      log.push(`timeline: ${line}`);
      return Promise.resolve();
    },
    flush: () => Promise.resolve(),
    ...setup.artifacts,
  };
  const workspace: StepWorkspace = {
    snapshot: () => Promise.resolve('base-tree'),
    changedSince: () => Promise.resolve({ files: ['greet.js'], patch: 'diff --git a/greet.js b/greet.js\n' }),
    reviewDiff: () => Promise.reject(new Error('no code review here')),
    commitStep: () => Promise.resolve({ kind: 'committed', hash: 'abcdef1234567', files: ['greet.js'] }),
    rollback: () => {
      log.push('rollback');
      return Promise.resolve(['greet.js']);
    },
    ...setup.workspace,
  };
  const tests: TestRunner = {
    resolve: () => Promise.resolve({ command: 'npm test', source: 'config' }),
    run: (command) => {
      log.push(`tests: ${command}`);
      return Promise.resolve({ passed: true, exitCode: 0, timedOut: false, durationMs: 1, output: '' });
    },
    stop: () => Promise.resolve(),
    ...setup.tests,
  };
  const dispatched: EngineEvent[] = [];
  const ctx: EngineContext = {
    deps: {
      repoRoot: '/repo',
      files,
      workspace,
      tests,
      artifacts,
      prompts: { render: () => Promise.resolve('') },
      agents: {} as EngineContext['deps']['agents'],
      options: { maxIterations: 5, autoApprove: false },
    },
    state: () => state,
    dispatch: (event) => {
      dispatched.push(event);
      return Promise.resolve(true);
    },
    emit: () => undefined,
    workClock: new WorkClock(),
    nowIso: () => '2026-01-01T00:01:00.000Z',
  };
  const gate = { check: () => Promise.resolve({ allow: true }) } as Partial<EngineCommandGate> as EngineCommandGate;
  const records = new RunRecords(ctx.deps);
  const abort = new AbortController();
  /** What a Stop does meanwhile: the state moves on (back to the goal) and the round's signal is aborted. */
  const stop = (): void => {
    state = { ...state, phase: 'REFINE_GOAL', inflight: null, stepRun: null, awaiting: { kind: 'goal' } };
    abort.abort();
  };
  /** What a shutdown does meanwhile: the signal is aborted, the state keeps waiting for the effect. */
  const shutDown = (): void => abort.abort();
  return { steps: new StepExecutor(ctx, records, gate), log, dispatched, signal: abort.signal, stop, shutDown };
}

const gated = <T>(): { promise: Promise<T>; open: (v: T) => void } => {
  let open: (v: T) => void = () => undefined;
  const promise = new Promise<T>((r) => (open = r));
  return { promise, open };
};

describe('step work around a stop', () => {
  it('tests are not started when the round is stopped while their attempt directory is made', async () => {
    const dir = gated<string>();
    const x = executor({ kind: 'run_tests', step: 1, attempt: 1 }, { artifacts: { attemptDir: () => dir.promise } });
    const ran = x.steps.runTests(1, 1, x.signal);
    await new Promise((r) => setTimeout(r, 0));
    x.stop();
    dir.open('/runs/step-1/attempt-1');
    await ran;
    expect(x.log.filter((l) => l.startsWith('tests:'))).toEqual([]);
    expect(x.dispatched).toEqual([]);
  });

  it('the test run gets the round signal, so a later stop reaches it', async () => {
    let given: AbortSignal | undefined;
    const x = executor(
      { kind: 'run_tests', step: 1, attempt: 1 },
      {
        tests: {
          run: (_command, opts) => {
            given = opts.signal;
            return Promise.resolve({ passed: true, exitCode: 0, timedOut: false, durationMs: 1, output: '' });
          },
        },
      },
    );
    await x.steps.runTests(1, 1, x.signal);
    expect(given).toBe(x.signal);
  });

  it('a rollback restores the files only once the step patch is on disk', async () => {
    const saved = gated<void>();
    const slow = (_s: number, _a: number, name: string): Promise<void> =>
      saved.promise.then(() => void x.log.push(`saved ${name}`));
    const x = executor({ kind: 'rollback_step', step: 1 }, { artifacts: { write: slow, keep: slow } });
    const rolling = x.steps.rollback(1, x.signal);
    await new Promise((r) => setTimeout(r, 0));
    expect(x.log).not.toContain('rollback');
    saved.open();
    await rolling;
    expect(x.log.indexOf('saved rolled-back.patch.diff')).toBeGreaterThanOrEqual(0);
    expect(x.log.indexOf('rollback')).toBeGreaterThan(x.log.indexOf('saved rolled-back.patch.diff'));
    expect(x.dispatched).toEqual([{ type: 'step_rolled_back', step: 1, files: ['greet.js'] }]);
  });

  it('a rollback whose patch cannot be saved does not roll back and says why in one line', async () => {
    const full = (): Promise<void> => Promise.reject(new Error('ENOSPC: no space left on device'));
    const x = executor({ kind: 'rollback_step', step: 1 }, { artifacts: { write: full, keep: full } });
    await expect(x.steps.rollback(1, x.signal)).rejects.toThrow(
      "could not save step 1's changes before rolling it back, so nothing was rolled back: ENOSPC: no space left on device",
    );
    expect(x.log).not.toContain('rollback');
    expect(x.dispatched).toEqual([]);
  });

  it('a resumed rollback that finds the files restored already keeps the patch saved before', async () => {
    const x = executor(
      { kind: 'rollback_step', step: 1 },
      {
        workspace: {
          changedSince: () => Promise.resolve({ files: [], patch: '' }),
          rollback: () => Promise.resolve([]),
        },
      },
    );
    await x.steps.rollback(1, x.signal);
    expect(x.log.filter((l) => l.includes('rolled-back.patch.diff'))).toEqual([]);
    expect(x.dispatched).toEqual([{ type: 'step_rolled_back', step: 1, files: [] }]);
  });

  it('a commit git made while the run was stopped is in log.md and the timeline; the state, which moved on, is not asked', async () => {
    const x = executor(
      { kind: 'commit_step', step: 1, summary: 'add greet()' },
      {
        workspace: {
          commitStep: () => {
            x.stop(); // the stop lands while git commits
            return Promise.resolve({ kind: 'committed', hash: 'abcdef1234567', files: ['greet.js'] });
          },
        },
      },
    );
    await x.steps.commit(1, 'add greet()', false, x.signal);
    expect(x.log).toContain('timeline: step 1 committed as abcdef1');
    expect(x.log).toContain('log.md: Step 1 committed as abcdef1 while the run was stopped [files: greet.js]');
    expect(x.dispatched).toEqual([]);
  });

  it('a commit git made while agent-collab shut down still reaches the state, which waits for it', async () => {
    const x = executor(
      { kind: 'commit_step', step: 1, summary: 'add greet()' },
      {
        workspace: {
          commitStep: () => {
            x.shutDown();
            return Promise.resolve({ kind: 'committed', hash: 'abcdef1234567', files: ['greet.js'] });
          },
        },
      },
    );
    await x.steps.commit(1, 'add greet()', false, x.signal);
    expect(x.dispatched).toEqual([
      { type: 'step_committed', step: 1, commit: 'abcdef1234567', files: ['greet.js'], at: '2026-01-01T00:01:00.000Z' },
    ]);
    expect(x.log.filter((l) => l.startsWith('log.md'))).toEqual([]); // the state's own log entry says it
  });

  it('a rollback done while the run was stopped is in log.md and the timeline', async () => {
    const x = executor(
      { kind: 'rollback_step', step: 1 },
      {
        workspace: {
          rollback: () => {
            x.stop();
            return Promise.resolve(['greet.js']);
          },
        },
      },
    );
    await x.steps.rollback(1, x.signal);
    expect(x.log).toContain('timeline: step 1 rolled back (1 file(s))');
    expect(x.log).toContain('log.md: Step 1 rolled back while the run was stopped [restored greet.js]');
    expect(x.dispatched).toEqual([]);
  });
});
