// A throwaway git repo for one bench run, set up like `agent-collab demo` does (src/modes/demo.ts).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

export interface BenchRepo {
  dir: string;
  cleanup(): Promise<void>;
}

export async function makeBenchRepo(): Promise<BenchRepo> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'agent-collab-bench-'));
  const git = (...args: string[]) => execa('git', args, { cwd: dir, stdin: 'ignore' });
  await git('init', '-q', '-b', 'main');
  await git('config', 'user.name', 'agent-collab bench');
  await git('config', 'user.email', 'bench@agent-collab.invalid');
  await git('config', 'commit.gpgsign', 'false');
  await writeFile(path.join(dir, 'README.md'), '# bench project\n');
  await git('add', '-A');
  await git('commit', '-q', '-m', 'initial commit');
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
