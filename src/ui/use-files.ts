import { useEffect, useRef, useState } from 'react';
import type { FilesReader, WatchedFile } from './ports.js';

export interface FileTexts {
  plan: string | null;
  comments: string | null;
  log: string | null;
  /** The tail of debug.log (only read while it is shown). */
  debug: string | null;
}

const EMPTY: FileTexts = { plan: null, comments: null, log: null, debug: null };
const MAIN: readonly WatchedFile[] = ['plan', 'comments', 'log'];
/** A burst of changes to one file (an editor's save, a stream of appends) is read at most once per SETTLE_MS. */
const SETTLE_MS = 50;

function reader(files: FilesReader, f: WatchedFile): () => Promise<string | null> {
  switch (f) {
    case 'plan':
      return () => files.readPlan();
    case 'comments':
      return () => files.readComments();
    case 'log':
      return () => files.readLog();
    case 'debug':
      return () => files.readDebugTail?.() ?? Promise.resolve(null);
  }
}

/**
 * plan.md, comments.md, log.md and (while `debug` is true) the tail of debug.log: read again whenever `version`
 * changes (the engine saved its state), and each one as soon as the reader reports that it changed on disk.
 */
export function useFileTexts(
  files: FilesReader,
  version: string,
  opts: { debug?: boolean } = {},
): { texts: FileTexts; reload: () => void } {
  const [texts, setTexts] = useState<FileTexts>(EMPTY);
  const alive = useRef(true);
  const wantDebug = useRef(Boolean(opts.debug));
  wantDebug.current = Boolean(opts.debug);

  const load = useRef<(which: readonly WatchedFile[]) => void>(() => undefined);
  const seq = useRef<Record<WatchedFile, number>>({ plan: 0, comments: 0, log: 0, debug: 0 });
  load.current = (which) => {
    for (const f of which) {
      if (f === 'debug' && !wantDebug.current) continue;
      const mine = ++seq.current[f];
      void reader(files, f)()
        .catch(() => null)
        .then((text) => {
          // Only the latest read of a file counts: an older one finishing late would show stale text.
          if (alive.current && seq.current[f] === mine)
            setTexts((prev) => (prev[f] === text ? prev : { ...prev, [f]: text }));
        });
    }
  };

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  useEffect(() => {
    if (!files.watch) return undefined;
    // The first change is read at once; more changes to the same file within SETTLE_MS are read once, after it.
    const timers = new Map<WatchedFile, NodeJS.Timeout>();
    const dirty = new Set<WatchedFile>();
    const quiet = (f: WatchedFile): void => {
      timers.set(
        f,
        setTimeout(() => {
          timers.delete(f);
          if (!dirty.delete(f)) return;
          load.current([f]);
          quiet(f);
        }, SETTLE_MS),
      );
    };
    const off = files.watch((f) => {
      if (timers.has(f)) {
        dirty.add(f);
        return;
      }
      load.current([f]);
      quiet(f);
    });
    return () => {
      for (const t of timers.values()) clearTimeout(t);
      off();
    };
  }, [files]);

  useEffect(() => load.current(MAIN), [files, version]);
  useEffect(() => {
    if (opts.debug) load.current(['debug']);
  }, [files, opts.debug, version]);

  return { texts, reload: () => load.current([...MAIN, 'debug']) };
}
