// A temp repo for the step workspace tests, with small helpers to write files and read git's view of them.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempRepo } from '../../helpers/repo.js';
import { GitStepWorkspace } from '../../../src/adapters/git/step-workspace.js';

export const WORKDIR = '.agent-collab';

export interface Fixture {
  dir: string;
  ws: GitStepWorkspace;
  git: (...args: string[]) => string;
  write: (file: string, content: string | Buffer) => void;
  read: (file: string) => string;
  exists: (file: string) => boolean;
  remove: (file: string) => void;
  /** `git status --porcelain=v1 -z` as "XY path" entries, sorted (renames as "R  new <- old"). */
  status: () => string[];
  /** Files of a commit with their status letter, e.g. "A\tnew.txt". */
  commitFiles: (rev?: string) => string[];
  cleanup: () => void;
}

export function fixture(opts: { commits?: boolean } = {}): Fixture {
  const repo = tempRepo();
  const dir = repo.dir;
  const git = (...args: string[]): string =>
    execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (opts.commits === false) {
    rmSync(path.join(dir, '.git'), { recursive: true, force: true });
    rmSync(path.join(dir, 'README.md'));
    git('init', '-q', '-b', 'main');
    git('config', 'user.name', 'test');
    git('config', 'user.email', 'test@example.invalid');
    git('config', 'commit.gpgsign', 'false');
  }
  const abs = (file: string): string => path.join(dir, file);
  const write = (file: string, content: string | Buffer): void => {
    mkdirSync(path.dirname(abs(file)), { recursive: true });
    writeFileSync(abs(file), content);
  };
  const status = (): string[] => {
    const parts = git('status', '--porcelain=v1', '-z', '--untracked-files=all').split('\0').filter(Boolean);
    const out: string[] = [];
    for (let i = 0; i < parts.length; i++) {
      const entry = parts[i] ?? '';
      if (entry.startsWith('R')) out.push(`${entry} <- ${parts[++i] ?? ''}`);
      else out.push(entry);
    }
    return out.sort();
  };
  const commitFiles = (rev = 'HEAD'): string[] =>
    git('show', '--no-renames', '--name-status', '--format=', '-z', rev)
      .split('\0')
      .filter(Boolean)
      .reduce<string[]>((acc, part, i, all) => (i % 2 === 0 ? [...acc, `${part}\t${all[i + 1] ?? ''}`] : acc), [])
      .sort();
  return {
    dir,
    ws: new GitStepWorkspace(dir, WORKDIR),
    git,
    write,
    read: (file) => readFileSync(abs(file), 'utf8'),
    exists: (file) => existsSync(abs(file)),
    remove: (file) => rmSync(abs(file)),
    status,
    commitFiles,
    cleanup: repo.cleanup,
  };
}
