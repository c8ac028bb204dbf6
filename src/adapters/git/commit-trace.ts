// Whether a `git commit` started any process of its own (a hook, a signing program, …), read from git's trace2
// event stream. Without one, the commit cannot have changed the working tree, and the tree agent-collab snapshotted
// just before it is still the working tree afterwards: the next step's base, with no snapshot of its own.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface CommitTrace {
  /** Environment for the traced git process (empty when the person traces git themselves: theirs is left alone). */
  env: Record<string, string>;
  /** After the process: true only when the trace is complete and shows no child process. Removes the trace. */
  startedNothing(): boolean;
}

export function traceCommit(env: NodeJS.ProcessEnv = process.env): CommitTrace {
  if (env.GIT_TRACE2_EVENT) return { env: {}, startedNothing: () => false };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-collab-trace-'));
  const file = path.join(dir, 'events.json');
  return {
    env: { GIT_TRACE2_EVENT: file },
    startedNothing: () => {
      try {
        return traceStartedNothing(readFileSync(file, 'utf8'));
      } catch {
        return false;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A complete trace2 event stream (it reaches `exit`) without a `child_start` event. */
export function traceStartedNothing(text: string): boolean {
  let exited = false;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let event: unknown;
    try {
      event = (JSON.parse(line) as { event?: unknown }).event;
    } catch {
      return false;
    }
    if (event === 'child_start') return false;
    if (event === 'exit') exited = true;
  }
  return exited;
}
