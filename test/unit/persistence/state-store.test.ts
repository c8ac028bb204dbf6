import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WorkflowState } from '../../../src/core/types.js';
import { newState, readState, writeState } from '../../../src/persistence/state-store.js';
import { tempDir } from './tmp-dir.js';

const fresh = () =>
  newState({
    runId: 'r1',
    goal: 'add a flag',
    mode: 'manual',
    maxIterations: 5,
    now: new Date('2026-02-05T10:30:00Z'),
  });

async function statePaths() {
  const workdir = path.join(await tempDir(), '.agent-collab');
  return { workdir, state: path.join(workdir, 'state.json') };
}

describe('newState', () => {
  it('starts a run in INIT with nothing done yet', () => {
    expect(fresh()).toEqual({
      schemaVersion: 1,
      runId: 'r1',
      phase: 'INIT',
      iteration: 0,
      maxIterations: 5,
      mode: 'manual',
      pauseRequested: false,
      goal: 'add a flag',
      refinedGoal: null,
      sessions: { planner: null, reviewer: null },
      currentStep: null,
      steps: [],
      stepRun: null,
      pendingCommand: null,
      allowedCommands: [],
      testCommand: null,
      inflight: null,
      awaiting: null,
      unclearCount: 0,
      lastVerdict: null,
      usage: { inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0, durationMs: 0, calls: 0 },
      codeReview: null,
      createdAt: '2026-02-05T10:30:00.000Z',
      updatedAt: '2026-02-05T10:30:00.000Z',
    });
  });
});

describe('readState / writeState', () => {
  it('says none when there is no state.json', async () => {
    expect(await readState(await statePaths())).toEqual({ kind: 'none' });
  });

  it('round-trips a busy state, creating the workdir', async () => {
    const paths = await statePaths();
    const state: WorkflowState = {
      ...fresh(),
      phase: 'EXECUTE',
      steps: [
        { n: 1, title: 'one', done: true, commit: 'abc' },
        { n: 2, title: 'two', done: false },
      ],
      inflight: { kind: 'execute_step', step: 2 },
      awaiting: {
        kind: 'failure',
        role: 'planner',
        failure: 'timeout',
        message: 'slow',
        action: { kind: 'review', reask: true },
      },
      sessions: { planner: 's-p', reviewer: null },
    };
    await writeState(paths, state);
    expect(await readState(paths)).toEqual({ kind: 'ok', state });
    expect(await readdir(paths.workdir)).toEqual(['state.json']); // lock and temp files are gone
  });

  it('keeps concurrent writes from one process in call order', async () => {
    const paths = await statePaths();
    await Promise.all([1, 2, 3, 4, 5].map((i) => writeState(paths, { ...fresh(), iteration: i })));
    const read = await readState(paths);
    expect(read.kind === 'ok' && read.state.iteration).toBe(5);
  });

  it.each([
    ['{ not json', /^invalid JSON: /],
    [JSON.stringify({ ...fresh(), schemaVersion: 2 }), /^unknown schemaVersion 2 \(expected 1\)$/],
    [JSON.stringify({ ...fresh(), phase: 'NAPPING' }), /^does not match the state schema: phase: /],
  ])('moves an unusable file aside: %s', async (text, reason) => {
    const paths = await statePaths();
    await writeState(paths, fresh());
    await writeFile(paths.state, text);
    const result = await readState(paths);
    if (result.kind !== 'corrupt') throw new Error(`expected corrupt, got ${result.kind}`);
    expect(result.reason).toMatch(reason);
    expect(result.reason).not.toContain('\n');
    expect(path.basename(result.movedTo)).toMatch(/^state\.json\.corrupt-\d{4}-\d\d-\d\dT[\d-]+Z$/);
    expect(await readFile(result.movedTo, 'utf8')).toBe(text);
    expect(await readState(paths)).toEqual({ kind: 'none' });
  });

  it('never overwrites an earlier corrupt copy', async () => {
    const paths = await statePaths();
    await mkdir(paths.workdir);
    const moved: string[] = [];
    for (const text of ['bad 1', 'bad 2', 'bad 3']) {
      await writeFile(paths.state, text);
      const r = await readState(paths);
      if (r.kind === 'corrupt') moved.push(r.movedTo);
    }
    expect(new Set(moved).size).toBe(3);
    expect(await Promise.all(moved.map((m) => readFile(m, 'utf8')))).toEqual(['bad 1', 'bad 2', 'bad 3']);
  });
});

describe('writeState takes no per-file lock', () => {
  it('a state.json.lock left by an older version is no obstacle: the instance lock holder is the only writer', async () => {
    const paths = await statePaths();
    await mkdir(`${paths.state}.lock`, { recursive: true }); // fresh, so a lock taker would wait ~7 s and fail
    await writeState(paths, { ...fresh(), iteration: 3 });
    const r = await readState(paths);
    expect(r.kind === 'ok' && r.state.iteration).toBe(3);
  });
});
