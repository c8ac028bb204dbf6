// Notes every git process the code under test starts: a `git` put first on PATH that writes its arguments down and
// runs the real git.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface GitCalls {
  /** Each git process so far as "<subcommand> <first argument>" (`-c` settings before them left out). */
  calls(): string[];
  /** Puts PATH back and removes the wrapper. */
  restore(): void;
}

export function recordGitCalls(): GitCalls {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-collab-gitlog-'));
  const log = path.join(dir, 'calls');
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(path.join(dir, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${realGit}' "$@"\n`);
  chmodSync(path.join(dir, 'git'), 0o755);
  const before = process.env.PATH;
  process.env.PATH = `${dir}${path.delimiter}${before ?? ''}`;
  const subcommand = (line: string): string => {
    const words = line.split(' ');
    while (words[0] === '-c') words.splice(0, 2);
    return words.slice(0, 2).join(' ');
  };
  return {
    calls: () => {
      try {
        return readFileSync(log, 'utf8').trim().split('\n').map(subcommand);
      } catch {
        return [];
      }
    },
    restore: () => {
      process.env.PATH = before;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
