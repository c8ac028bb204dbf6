// Where agent-collab's own files are (prompts/, package.json, the hook program): the directory of the nearest
// package.json named "agent-collab" above this module. Works from the sources (`src/`, under vitest or tsx), from
// the bundle (`dist/cli.js`, `dist/chunks/…`) and from an installed package.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'agent-collab';

export interface PackageInfo {
  /** Absolute path of the directory that holds agent-collab's package.json. */
  root: string;
  version: string;
}

let found: PackageInfo | undefined;

function readPackageJson(dir: string): { name?: unknown; version?: unknown } | null {
  try {
    return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
  } catch {
    return null;
  }
}

/** Walks up from `start` to the package.json named agent-collab; throws a one-line error when there is none. */
export function findPackage(start: string): PackageInfo {
  for (let dir = path.resolve(start); ;) {
    const pkg = readPackageJson(dir);
    if (pkg?.name === PACKAGE_NAME)
      return { root: dir, version: typeof pkg.version === 'string' ? pkg.version : '0.0.0' };
    const parent = path.dirname(dir);
    if (parent === dir)
      throw new Error(`cannot find agent-collab's package.json above ${start}; reinstall agent-collab`);
    dir = parent;
  }
}

/** agent-collab's package, found once from this module's own location. */
export function packageInfo(): PackageInfo {
  found ??= findPackage(path.dirname(fileURLToPath(import.meta.url)));
  return found;
}

/** An absolute path inside agent-collab's package, e.g. `fromPackageRoot('prompts')`. */
export function fromPackageRoot(...segments: string[]): string {
  return path.join(packageInfo().root, ...segments);
}
