// What the TUI shows passes the redaction layer: the engine's state and outputs, and the workflow files' texts.
// The engine itself keeps the real values (it runs with them); only the view gets the redacted copies.
import { STATE_VERBATIM, type Redactor } from '../core/redact.js';
import type { EngineLike, FilesReader } from './ports.js';

export function redactedEngine(engine: EngineLike, redactor: Redactor): EngineLike {
  return {
    get state() {
      return redactor.deep(engine.state, STATE_VERBATIM);
    },
    dispatch: (event) => engine.dispatch(event),
    subscribe: (listener) => engine.subscribe((out) => listener(redactor.deep(out, STATE_VERBATIM))),
  };
}

export function redactedFiles(files: FilesReader, redactor: Redactor): FilesReader {
  const clean = (read: () => Promise<string | null>) => async (): Promise<string | null> => {
    const text = await read();
    return text === null ? null : redactor.text(text);
  };
  const { readDebugTail, readCommitDiff, readRunCommits } = files;
  return {
    readPlan: clean(() => files.readPlan()),
    readComments: clean(() => files.readComments()),
    readLog: clean(() => files.readLog()),
    ...(readDebugTail ? { readDebugTail: clean(() => readDebugTail.call(files)) } : {}),
    // A step's patch holds whatever the agent wrote: its text and file names are redacted like every other sink.
    ...(readCommitDiff
      ? {
          readCommitDiff: async (commit: string) => {
            const diff = await readCommitDiff.call(files, commit);
            return diff === null ? null : redactor.deep(diff);
          },
        }
      : {}),
    ...(readRunCommits
      ? {
          readRunCommits: async (runId: string) => {
            const commits = await readRunCommits.call(files, runId);
            // The hashes are read back to git: kept verbatim (they are hex, nothing to hide).
            return commits === null ? null : commits.map((c) => ({ hash: c.hash, subject: redactor.text(c.subject) }));
          },
        }
      : {}),
    ...(files.watch ? { watch: files.watch.bind(files) } : {}),
  };
}
