// The executor hands the workspace what identifies the step's commit (its base and start, saved before the first
// attempt) and the step's signal, so closing the engine stops a commit that hangs (a hook, a gpg prompt).
import { describe, expect, it } from 'vitest';
import type { StepCommitOptions, StepWorkspace } from '../../../src/core/ports.js';
import { newStepRun } from '../../../src/core/execution.js';
import type { CommandPolicy } from '../../../src/engine/command-gate.js';
import { Engine } from '../../../src/engine/runner.js';
import { quietFiles } from '../../helpers/quiet-ports.js';
import { OPTS, running } from '../../helpers/states.js';

const files = quietFiles();

const allowAll: CommandPolicy = {
  ready: () => Promise.resolve(),
  evaluate: () => ({ decision: 'allow', rule: null, reason: 'allowed in this test' }),
  allowedByPrefix: () => true,
  interactive: false,
  allowPrefixes: [],
  confirmTimeoutMs: 1_000,
};

describe('the commit of a step', () => {
  it('gets the step’s base, start and signal; closing the engine aborts a commit that never ends by itself', async () => {
    const calls: StepCommitOptions[] = [];
    const workspace: StepWorkspace = {
      snapshot: () => Promise.reject(new Error('no git here')),
      changedSince: () => Promise.reject(new Error('no git here')),
      reviewDiff: () => Promise.reject(new Error('no git here')),
      rollback: () => Promise.reject(new Error('no git here')),
      // Like git waiting on a hook: ends only when stopped.
      commitStep: (opts) => {
        calls.push(opts);
        return new Promise((resolve) =>
          opts.signal?.addEventListener('abort', () => resolve({ kind: 'failed', message: 'git was stopped' })),
        );
      },
    };
    const base = running(
      'EXECUTE',
      { kind: 'commit_step', step: 1, summary: 'Do it' },
      { mode: 'auto', currentStep: 1, testCommand: '' },
    );
    const state = {
      ...base,
      stepRun: { ...newStepRun(base, 1, 'tree-1', '2026-01-01T10:00:00.000Z'), testResult: 'passed' as const },
    };
    const engine = new Engine(state, {
      repoRoot: '/nowhere',
      files,
      workspace,
      prompts: { render: (name: string) => Promise.resolve(name) },
      agents: {} as never,
      options: OPTS,
      commands: allowAll,
    });
    await engine.resume();
    for (let i = 0; i < 200 && calls.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(calls).toMatchObject([
      { runId: state.runId, step: 1, baseTree: 'tree-1', startedAt: '2026-01-01T10:00:00.000Z' },
    ]);
    expect(calls[0]?.signal?.aborted).toBe(false);
    await engine.close();
    expect(calls[0]?.signal?.aborted).toBe(true);
  });
});
