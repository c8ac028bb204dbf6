// Finds a program on PATH before it is wrapped: inside bwrap a missing program is only "bwrap: execvp … No such file
// or directory", and agent-collab must still say "<cli> is not installed" with the install hint.
import { accessSync, constants, realpathSync } from 'node:fs';
import path from 'node:path';

export function resolveOnPath(program: string, pathVar: string | undefined): string | null {
  const candidates = program.includes('/')
    ? [path.resolve(program)]
    : (pathVar ?? '')
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, program));
  for (const file of candidates) {
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

/** The dirs a program needs to see (its own and, for a symlink such as an npm bin, its target's package dir). */
export function programDirs(file: string): string[] {
  const dirs = [path.dirname(file)];
  try {
    const target = realpathSync(file);
    dirs.push(path.dirname(path.dirname(target)));
  } catch {
    // a dangling link: running it fails on its own
  }
  return dirs;
}
