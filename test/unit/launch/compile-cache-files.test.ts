import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compileCacheDir, compileCacheFile, readBundle, readCachedData, saveCachedData, STALE_CACHE_MS, startKind, worthCaching } from '../../../src/launch/compile-cache.js';

const temps: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-collab-cc-'));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('compile cache: where it lives', () => {
  it('is v8/ under XDG_CACHE_HOME, else ~/.cache; AGENT_COLLAB_CACHE_DIR moves all caches or switches them off', () => {
    expect(compileCacheDir({ XDG_CACHE_HOME: '/x/cache' }, () => '/home/p')).toBe('/x/cache/agent-collab/v8');
    expect(compileCacheDir({}, () => '/home/p')).toBe('/home/p/.cache/agent-collab/v8');
    expect(compileCacheDir({ AGENT_COLLAB_CACHE_DIR: '/tmp/cc', XDG_CACHE_HOME: '/x' }, () => '/home/p')).toBe('/tmp/cc/v8');
    for (const off of ['0', 'off', 'false', 'no', ' OFF ']) expect(compileCacheDir({ AGENT_COLLAB_CACHE_DIR: off }, () => '/home/p')).toBeNull();
    // No home directory to be found: no cache, and no error.
    expect(compileCacheDir({}, () => '')).toBeNull();
    expect(
      compileCacheDir({}, () => {
        throw new Error('no passwd entry');
      }),
    ).toBeNull();
  });

  it('keeps one file per build, bundle size and mtime, Node version, platform and kind of start', () => {
    const bundle = { buildId: 'abc123', size: 1000, mtimeMs: 1700000000123.7 };
    expect(compileCacheFile('/c', bundle, 'run', 'v20.20.2', 'x64')).toBe('/c/abc123-1000-1700000000123-v20.20.2-x64-run.bin');
    const others = [
      compileCacheFile('/c', { ...bundle, buildId: 'def456' }, 'run', 'v20.20.2', 'x64'),
      compileCacheFile('/c', { ...bundle, size: 1001 }, 'run', 'v20.20.2', 'x64'),
      compileCacheFile('/c', { ...bundle, mtimeMs: 1700000009999 }, 'run', 'v20.20.2', 'x64'),
      compileCacheFile('/c', bundle, 'run', 'v22.1.0', 'x64'),
      compileCacheFile('/c', bundle, 'tui', 'v20.20.2', 'x64'),
    ];
    expect(new Set(others).size).toBe(others.length);
    expect(others).not.toContain('/c/abc123-1000-1700000000123-v20.20.2-x64-run.bin');
  });

  it('tells the kinds of start apart by the first argument', () => {
    expect(startKind([])).toBe('tui');
    expect(startKind(['run', '--goal', 'x'])).toBe('run');
    expect(startKind(['--version'])).toBe('version');
    expect(startKind(['-h'])).toBe('help');
    expect(startKind(['policy', 'check', 'ls'])).toBe('policy');
    expect(startKind(['doctor'])).toBe('doctor');
    expect(startKind(['demo'])).toBe('demo');
    expect(startKind(['bogus'])).toBe('other');
  });

  it('is only kept from a start that went through its start-up (a run refused for bad input compiled little)', () => {
    for (const code of [0, 3, 4, 130]) expect(worthCaching('run', code)).toBe(true);
    expect(worthCaching('run', 2)).toBe(false);
    expect(worthCaching('run', 1)).toBe(false);
    expect(worthCaching('tui', 0)).toBe(true);
    expect([0, 1, 2].map((c) => worthCaching('policy', c))).toEqual([true, true, true]);
    expect(worthCaching('doctor', 1)).toBe(true);
    expect(worthCaching('version', 0)).toBe(true);
    expect(worthCaching('other', 0)).toBe(false);
  });
});

describe('compile cache: reading and writing', () => {
  it('reads the bundle as text with its size and mtime', () => {
    const dir = tempDir();
    const file = path.join(dir, 'main-abc.cjs');
    writeFileSync(file, '"use strict";var x=1;');
    utimesSync(file, new Date(1_700_000_000_000), new Date(1_700_000_000_000));
    expect(readBundle(file, 'abc')).toEqual({ source: '"use strict";var x=1;', identity: { buildId: 'abc', size: 21, mtimeMs: 1_700_000_000_000 } });
    expect(() => readBundle(path.join(dir, 'missing.cjs'), 'abc')).toThrow(/ENOENT/);
  });

  it('writes a cache into a new private directory and reads it back; a missing one reads as nothing', () => {
    const dir = path.join(tempDir(), 'deep', 'v8');
    const file = path.join(dir, 'b1-10-5-v20-x64-run.bin');
    expect(readCachedData(file)).toBeUndefined();
    saveCachedData(file, Buffer.from([1, 2, 3]), 'b1');
    expect(readCachedData(file)).toEqual(Buffer.from([1, 2, 3]));
    expect(readdirSync(dir)).toEqual(['b1-10-5-v20-x64-run.bin']); // no temp file left
  });

  it('removes other builds’ caches once they are a week old, and keeps this build’s and recent ones', () => {
    const dir = tempDir();
    const now = Date.now();
    const old = new Date(now - STALE_CACHE_MS - 60_000);
    const names = ['old1-1-1-v20-x64-run.bin', 'recent2-1-1-v20-x64-run.bin', 'b1-1-1-v20-x64-tui.bin', 'notes.txt'];
    for (const n of names) writeFileSync(path.join(dir, n), 'x');
    for (const n of ['old1-1-1-v20-x64-run.bin', 'b1-1-1-v20-x64-tui.bin', 'notes.txt']) utimesSync(path.join(dir, n), old, old);
    saveCachedData(path.join(dir, 'b1-1-1-v20-x64-run.bin'), Buffer.from('new'), 'b1', now);
    expect(readdirSync(dir).sort()).toEqual(['b1-1-1-v20-x64-run.bin', 'b1-1-1-v20-x64-tui.bin', 'notes.txt', 'recent2-1-1-v20-x64-run.bin']);
  });

  it('gives up silently where it cannot write (a cache is only an optimisation)', () => {
    const dir = tempDir();
    const blocker = path.join(dir, 'not-a-dir');
    writeFileSync(blocker, 'file');
    expect(() => saveCachedData(path.join(blocker, 'v8', 'b-1-1-v20-x64-run.bin'), Buffer.from('x'), 'b')).not.toThrow();
    expect(readFileSync(blocker, 'utf8')).toBe('file');
    const readOnly = path.join(dir, 'ro');
    mkdirSync(readOnly, { mode: 0o500 });
    expect(() => saveCachedData(path.join(readOnly, 'b-1-1-v20-x64-run.bin'), Buffer.from('x'), 'b')).not.toThrow();
    expect(readdirSync(readOnly)).toEqual(process.getuid?.() === 0 ? ['b-1-1-v20-x64-run.bin'] : []);
  });
});
