// Notices `.agent-collab/` deleted, or state.json replaced, behind agent-collab's back during a run. Checked before
// each of agent-collab's own writes (which would otherwise quietly recreate the directory and go on): the run stops
// with one line, after agent-collab put back what it holds copies of. Someone else's state.json is kept aside.
import { rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { EXIT, UserError } from '../core/errors.js';
import type { WorkflowState } from '../core/types.js';
import { inOrder, writeAtomic } from './atomic-write.js';
import type { Paths } from './paths.js';
import { writeState } from './state-store.js';
import { patternRedactor, type Redactor } from '../core/redact.js';

interface FileId {
  ino: number;
  size: number;
  mtimeMs: number;
}

/** The run stops: agent-collab's files changed under it. Exit 3 ("a file changed outside"), the state kept. */
export class WorkdirChanged extends UserError {
  constructor(message: string) {
    super(message, EXIT.needsHuman);
    this.name = 'WorkdirChanged';
  }
}

export class WorkdirWatch {
  /** state.json as agent-collab last wrote (or read) it, and the state in it. */
  private saved: { id: FileId; state: WorkflowState } | null = null;
  /** The full text agent-collab last wrote to each of its markdown files, to put back if they vanish. */
  private readonly texts = new Map<string, string>();
  /** The instance lock's directory was there at a check (it is not when the files are used without a session). */
  private lockSeen = false;

  constructor(
    private readonly paths: Pick<Paths, 'workdir' | 'state'>,
    /** state.json is written redacted (core/redact.ts). */
    private readonly redactor: Redactor = patternRedactor,
  ) {}

  /**
   * Runs one of agent-collab's writes after check(). Checks and writes take turns (a check must not see a state.json
   * that a save is just renaming into place), on a queue of their own: writeState queues on state.json itself.
   */
  guard<T>(write: () => Promise<T>): Promise<T> {
    return inOrder(`${this.paths.state}#watch`, async () => {
      await this.check();
      try {
        return await write();
      } catch (err) {
        // Deleted while the write was under way (between its mkdir and its open): said as such, not as ENOENT.
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') await this.check();
        throw err;
      }
    });
  }

  /** Saves state.json (guarded) and remembers the file it wrote. */
  save(state: WorkflowState): Promise<void> {
    return this.guard(async () => {
      await writeState(this.paths, state, this.redactor);
      await this.stateIs(state);
    });
  }

  /** state.json now holds `state`, written or read by agent-collab itself. */
  async stateIs(state: WorkflowState): Promise<void> {
    const id = await fileId(this.paths.state);
    this.saved = id === null ? null : { id, state };
  }

  /** The run's files were moved to history/: nothing of them is expected in place any more. */
  forget(): void {
    this.saved = null;
    this.texts.clear();
  }

  wrote(file: string, text: string): void {
    this.texts.set(file, text);
  }

  /**
   * Throws WorkdirChanged when the work dir or state.json is gone or state.json is not the file agent-collab wrote,
   * after writing back state.json and the markdown files it has copies of (someone else's state.json moved aside).
   */
  private async check(): Promise<void> {
    // The lock directory is there from the start of the session to its end: without it the whole work dir went
    // (whatever agent-collab wrote since, e.g. debug.log, has made the directory again).
    const lockThere = (await fileId(path.join(this.paths.workdir, 'agent-collab.lock'))) !== null;
    const dirGone = (await fileId(this.paths.workdir)) === null || (this.lockSeen && !lockThere);
    this.lockSeen ||= lockThere;
    if (!this.saved && !dirGone) return;
    const now = await fileId(this.paths.state);
    const saved = this.saved;
    if (!dirGone && saved && now && sameFile(now, saved.id)) return;
    const rel = (p: string) => path.relative(path.dirname(this.paths.workdir), p);
    let what: string;
    let kept = '';
    if (dirGone) what = `${rel(this.paths.workdir)}/ was deleted during the run`;
    else if (!now) what = `${rel(this.paths.state)} was deleted during the run`;
    else {
      const aside = `${this.paths.state}.outside-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      await rename(this.paths.state, aside);
      what = `${rel(this.paths.state)} was replaced by another program during the run`;
      kept = `; that file is kept as ${rel(aside)}`;
    }
    this.lockSeen = false; // reported once: what follows is measured from the files as written back
    let back: string;
    try {
      const restored = await this.restore();
      back = restored.length ? `; agent-collab wrote back its ${restored.join(', ')}` : '';
    } catch (err) {
      back = `; agent-collab could not write back its files (${(err as Error).message.split('\n')[0]})`;
    }
    throw new WorkdirChanged(
      `${what}${kept}${back}; the run stopped: check ${rel(this.paths.workdir)}/, then rerun with --resume (or --fresh)`,
    );
  }

  /** Writes back state.json and the vanished markdown files from agent-collab's own copies; names what it wrote. */
  private async restore(): Promise<string[]> {
    const done: string[] = [];
    if (this.saved) {
      await writeState(this.paths, this.saved.state, this.redactor);
      await this.stateIs(this.saved.state);
      done.push(path.basename(this.paths.state));
    }
    for (const [file, text] of this.texts) {
      if ((await fileId(file)) !== null) continue; // the person's version, if any, stays
      await writeAtomic(file, text);
      done.push(path.basename(file));
    }
    return done;
  }
}

function sameFile(a: FileId, b: FileId): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

async function fileId(file: string): Promise<FileId | null> {
  try {
    const s = await stat(file);
    return { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs };
  } catch {
    return null;
  }
}
