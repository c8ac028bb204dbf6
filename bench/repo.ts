// A throwaway git repo for one bench run, made like `agent-collab demo` makes its own.
import { rm } from 'node:fs/promises';
import { makeScratchRepo } from '../src/modes/scratch-repo.js';

export interface BenchRepo {
  dir: string;
  cleanup(): Promise<void>;
}

export async function makeBenchRepo(): Promise<BenchRepo> {
  const dir = await makeScratchRepo('bench');
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
