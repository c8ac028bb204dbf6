// Times the engine's file operations (the WorkflowFiles port) without changing what they do,
// so the bench can say where the engine's time per round goes.
import { performance } from 'node:perf_hooks';
import type { WorkflowFiles } from '../src/core/ports.js';

export const TIMED_OPS = ['saveState', 'readPlan', 'readComments', 'writePlan', 'writeComments', 'setPlanStatus', 'appendLog'] as const;
export type TimedOp = (typeof TIMED_OPS)[number];

export interface FileOp {
  op: TimedOp;
  start: number;
  ms: number;
}

/** Replaces the port's async methods on this instance with timed wrappers; returns the list they record into. */
export function instrumentFiles(files: WorkflowFiles): FileOp[] {
  const ops: FileOp[] = [];
  const target = files as unknown as Record<TimedOp, (...args: unknown[]) => Promise<unknown>>;
  for (const op of TIMED_OPS) {
    const original = target[op].bind(files);
    target[op] = async (...args: unknown[]) => {
      const start = performance.now();
      try {
        return await original(...args);
      } finally {
        ops.push({ op, start, ms: performance.now() - start });
      }
    };
  }
  return ops;
}
