import { useEffect, useState } from 'react';
import type { FilesReader } from './ports.js';

export interface FileTexts {
  plan: string | null;
  comments: string | null;
  log: string | null;
}

const EMPTY: FileTexts = { plan: null, comments: null, log: null };

/** plan.md, comments.md and log.md, read again whenever `version` changes or the reader reports a change. */
export function useFileTexts(files: FilesReader, version: string): { texts: FileTexts; reload: () => void } {
  const [texts, setTexts] = useState<FileTexts>(EMPTY);
  const [bump, setBump] = useState(0);
  useEffect(() => {
    if (!files.watch) return undefined;
    let timer: NodeJS.Timeout | null = null;
    const off = files.watch(() => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => setBump((n) => n + 1), 30);
    });
    return () => {
      if (timer) clearTimeout(timer);
      off();
    };
  }, [files]);
  useEffect(() => {
    let alive = true;
    const safe = (p: Promise<string | null>): Promise<string | null> => p.catch(() => null);
    void Promise.all([safe(files.readPlan()), safe(files.readComments()), safe(files.readLog())]).then(([plan, comments, log]) => {
      if (!alive) return;
      setTexts((prev) => (prev.plan === plan && prev.comments === comments && prev.log === log ? prev : { plan, comments, log }));
    });
    return () => {
      alive = false;
    };
  }, [files, version, bump]);
  return { texts, reload: () => setBump((n) => n + 1) };
}
