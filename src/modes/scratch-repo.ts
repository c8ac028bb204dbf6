// A throwaway git repo with an identity and one commit: for `agent-collab demo` and the bench.
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

export async function makeScratchRepo(name: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `agent-collab-${name}-`));
  const git = (...args: string[]) => execa('git', args, { cwd: dir, stdin: 'ignore' });
  await git('init', '-q', '-b', 'main');
  await git('config', 'user.name', `agent-collab ${name}`);
  await git('config', 'user.email', `${name}@agent-collab.invalid`);
  await git('config', 'commit.gpgsign', 'false');
  await writeFile(path.join(dir, 'README.md'), `# ${name} project\n`);
  await git('add', '-A');
  await git('commit', '-q', '-m', 'initial commit');
  return dir;
}
