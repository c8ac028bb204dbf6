import { readFile, rename, access } from 'node:fs/promises';
import type { Mode, WorkflowState } from '../core/types.js';
import { patternRedactor, STATE_VERBATIM, type Redactor } from '../core/redact.js';
import { formatPath } from './config-errors.js';
import { inOrder, writeAtomic } from './atomic-write.js';
import { asUserError } from './fs-errors.js';
import type { Paths } from './paths.js';
import { workflowStateSchema } from './state-schema.js';

export type ReadStateResult =
  { kind: 'none' } | { kind: 'ok'; state: WorkflowState } | { kind: 'corrupt'; movedTo: string; reason: string };

/** Reads state.json. A file that cannot be used is renamed to `state.json.corrupt-<timestamp>`, never deleted. */
export async function readState(paths: Pick<Paths, 'state'>): Promise<ReadStateResult> {
  let text: string;
  try {
    text = await readFile(paths.state, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' };
    throw asUserError(err, paths.state);
  }
  const problem = checkState(text);
  if ('state' in problem) return { kind: 'ok', state: problem.state };
  const movedTo = await moveAside(paths.state);
  return { kind: 'corrupt', movedTo, reason: problem.reason };
}

function checkState(text: string): { state: WorkflowState } | { reason: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { reason: `invalid JSON: ${oneLine((err as Error).message)}` };
  }
  const version = (data as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (version !== 1)
    return { reason: `unknown schemaVersion ${oneLine(JSON.stringify(version) ?? 'missing')} (expected 1)` };
  const parsed = workflowStateSchema.safeParse(data);
  if (parsed.success) return { state: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${formatPath(issue.path)}: ` : '';
  return { reason: `does not match the state schema: ${where}${oneLine(issue?.message ?? parsed.error.message)}` };
}

async function moveAside(file: string): Promise<string> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  let target = `${file}.corrupt-${stamp}`;
  for (let i = 2; await exists(target); i++) target = `${file}.corrupt-${stamp}-${i}`;
  await rename(file, target);
  return target;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Atomic, durable write of state.json, its strings redacted; writes land in call order (the instance lock keeps
 * other processes out).
 */
export async function writeState(
  paths: Pick<Paths, 'state'>,
  state: WorkflowState,
  redactor: Redactor = patternRedactor,
): Promise<void> {
  const parsed = workflowStateSchema.parse(state);
  const checked = redactor.deep(parsed, STATE_VERBATIM);
  // A file version waiting for the person's choice is written back into plan.md or comments.md by that choice: it
  // stays as it is (the same text is in the file on disk anyway), or the choice would write `[REDACTED:…]` there.
  const a = parsed.awaiting;
  if (a && (a.kind === 'external_change' || a.kind === 'merge_conflicts')) checked.awaiting = a;
  await inOrder(paths.state, () => writeAtomic(paths.state, `${JSON.stringify(checked, null, 2)}\n`));
}

export interface NewStateInput {
  runId: string;
  goal: string;
  mode: Mode;
  maxIterations: number;
  now?: Date;
}

/** A fresh run in phase INIT. */
export function newState({ runId, goal, mode, maxIterations, now = new Date() }: NewStateInput): WorkflowState {
  const at = now.toISOString();
  return {
    schemaVersion: 1,
    runId,
    phase: 'INIT',
    iteration: 0,
    maxIterations,
    mode,
    pauseRequested: false,
    goal,
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
    createdAt: at,
    updatedAt: at,
  };
}
