// Where the launcher keeps V8's code cache for the bundle (dist/main-<hash>.cjs), and reading and writing it.
//
// One file per kind of start (run, the TUI, doctor, …: each compiles different functions) per build and Node
// version, in `v8/` of the cache directory (src/cache-dir.ts). A cache is only ever an
// optimisation: every failure to read or write one is silent, and V8 itself rejects data made by another V8 version
// or with other flags (the launcher then compiles as usual and writes a fresh one).
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cacheRoot } from '../cache-dir.js';

/** Caches of other builds are removed when a new cache is written and they are older than this. */
export const STALE_CACHE_MS = 7 * 24 * 3600_000;
/**
 * Whether a start that ends with `code` compiled what later starts of its kind need. A run refused before it began
 * (bad input, exit 2) or one that crashed (1) compiled little, and its cache would be the one every later run uses;
 * one whose agent failed (4) went through the whole start-up, which is what the cache is for.
 */
export function worthCaching(kind: string, code: number): boolean {
  switch (kind) {
    case 'run':
    case 'tui':
    case 'demo':
      return code === 0 || code === 3 || code === 4 || code === 130; // done, needs the person, agent failed, interrupted
    case 'policy':
      return code === 0 || code === 1 || code === 2; // allow, confirm, block
    case 'doctor':
      return code === 0 || code === 1; // no problem, problems found
    case 'version':
    case 'help':
      return code === 0;
    default:
      return false;
  }
}

/** The kind of start, from the first argument: which functions a start compiles depends on it. */
export function startKind(argv: readonly string[]): string {
  const first = argv[0];
  if (first === undefined) return 'tui';
  if (first === '--version' || first === '-v' || first === 'version') return 'version';
  if (first === '--help' || first === '-h' || first === 'help') return 'help';
  return ['run', 'demo', 'doctor', 'policy'].includes(first) ? first : 'other';
}

/** The compile cache's directory, or null when caching is switched off or there is no home directory. */
export function compileCacheDir(env: NodeJS.ProcessEnv, home: () => string = os.homedir): string | null {
  const root = cacheRoot(env, home);
  return root === null ? null : path.join(root, 'v8');
}

export interface BundleIdentity {
  /** Set by the build: a hash of the bundle's content. */
  buildId: string;
  size: number;
  mtimeMs: number;
}

/**
 * The cache file for this bundle, Node and kind of start. The bundle's size and mtime are part of the name so that a
 * bundle changed after the build never meets code cached for other source (V8 itself only compares the length).
 */
export function compileCacheFile(dir: string, bundle: BundleIdentity, kind: string, node = process.version, arch = process.arch): string {
  return path.join(dir, `${bundle.buildId}-${bundle.size}-${Math.trunc(bundle.mtimeMs)}-${node}-${arch}-${kind}.bin`);
}

/** The bundle's text and identity (one open, one fstat, one read). The build makes it pure ASCII: read as latin1, it
 * needs no UTF-8 decoding. */
export function readBundle(file: string, buildId: string): { source: string; identity: BundleIdentity } {
  const fd = openSync(file, 'r');
  try {
    const { size, mtimeMs } = fstatSync(fd);
    return { source: readFileSync(fd, 'latin1'), identity: { buildId, size, mtimeMs } };
  } finally {
    closeSync(fd);
  }
}

export function readCachedData(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Writes the cache (temp file + rename, so a concurrent start never reads half of one) and prunes old builds' files. */
export function saveCachedData(file: string, data: Buffer, buildId: string, now = Date.now()): void {
  const dir = path.dirname(file);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(tmp, data, { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // the directory itself is not there or not one
    }
    return;
  }
  pruneOtherBuilds(dir, buildId, now);
}

function pruneOtherBuilds(dir: string, buildId: string, now: number): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith(`${buildId}-`) || !name.endsWith('.bin')) continue;
    const file = path.join(dir, name);
    try {
      if (now - statSync(file).mtimeMs > STALE_CACHE_MS) rmSync(file, { force: true });
    } catch {
      // gone already
    }
  }
}
