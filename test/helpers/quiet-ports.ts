// The engine's file and git ports for unit tests that only watch the state: files that take every write and read
// back an empty plan, and a workspace with no git behind it (a step that reaches git fails loudly).
import type { StepWorkspace, WorkflowFiles } from '../../src/core/ports.js';

export function quietFiles(overrides: Partial<WorkflowFiles> = {}): WorkflowFiles {
  const ok = (): Promise<void> => Promise.resolve();
  return {
    saveState: ok,
    readPlan: () => Promise.resolve('the plan'),
    readComments: () => Promise.resolve(null),
    writePlan: ok,
    writeComments: ok,
    setPlanStatus: ok,
    readSteps: () => Promise.resolve([]),
    markStepDone: ok,
    markStepSkipped: ok,
    appendSteps: ok,
    acceptEdit: ok,
    changedOutside: () => Promise.resolve(false),
    resolveExternal: (_file, incoming) => Promise.resolve(incoming),
    appendLog: ok,
    archive: () => Promise.resolve('history/x'),
    debug: () => undefined,
    ...overrides,
  };
}

const noGit = (): Promise<never> => Promise.reject(new Error('no git here'));

export const NO_GIT_WORKSPACE: StepWorkspace = {
  snapshot: noGit,
  changedSince: noGit,
  reviewDiff: noGit,
  commitStep: noGit,
  rollback: noGit,
};
