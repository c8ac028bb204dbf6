// The launcher (dist/agent-collab.cjs) keeps V8's compiled code of a start and the next start of the same kind uses it:
// a cache file that V8 accepts is not written again, one it rejects is replaced, and the cache never changes what
// agent-collab does or prints.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, runToEnd } from '../helpers/cli.js';

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-collab-ccli-'));
  temps.push(dir);
  return dir;
}

function run(args: string[], env: NodeJS.ProcessEnv, cwd: string): ReturnType<typeof runToEnd> {
  return runToEnd(BIN, args, { cwd, env: { ...process.env, NO_COLOR: '1', ...env } });
}

/** The cache files of one kind of start, with the inode and mtime that show whether a start wrote them again. */
function cacheFiles(dir: string, kind: string): Array<{ file: string; ino: number; mtimeMs: number }> {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith(`-${kind}.bin`))
    .map((n) => {
      const file = path.join(dir, n);
      const st = statSync(file);
      return { file, ino: st.ino, mtimeMs: st.mtimeMs };
    });
}

describe('the built CLI’s compile cache', () => {
  it('is written by the first start of a kind and used, not rewritten, by the next ones', async () => {
    const cache = path.join(tempDir(), 'cc');
    const v8 = path.join(cache, 'v8');
    const env = { AGENT_COLLAB_CACHE_DIR: cache };
    const first = await run(['--version'], env, tempDir());
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const written = cacheFiles(v8, 'version');
    expect(written).toHaveLength(1);
    for (let i = 0; i < 2; i++) {
      const again = await run(['--version'], env, tempDir());
      expect(again).toEqual(first);
      expect(cacheFiles(v8, 'version')).toEqual(written);
    }
  });

  it('is accepted after a start that loaded the shell parser (which sets a V8 flag) too', async () => {
    const cache = path.join(tempDir(), 'cc');
    const v8 = path.join(cache, 'v8');
    const env = { AGENT_COLLAB_CACHE_DIR: cache };
    const cwd = tempDir();
    const first = await run(['policy', 'check', 'rm -rf /'], env, cwd);
    expect(first.code).toBe(2);
    expect(first.stdout).toMatch(/^block/);
    const written = cacheFiles(v8, 'policy');
    expect(written).toHaveLength(1);
    const again = await run(['policy', 'check', 'rm -rf /'], env, cwd);
    expect(again).toEqual(first);
    expect(cacheFiles(v8, 'policy')).toEqual(written);
  });

  it('replaces a cache V8 rejects, and the start works as without one', async () => {
    const cache = path.join(tempDir(), 'cc');
    const v8 = path.join(cache, 'v8');
    const env = { AGENT_COLLAB_CACHE_DIR: cache };
    const expected = await run(['--version'], env, tempDir());
    const [entry] = cacheFiles(v8, 'version');
    const garbage = Buffer.alloc(statSync(entry!.file).size, 0x5a);
    writeFileSync(entry!.file, garbage);
    expect(await run(['--version'], env, tempDir())).toEqual(expected);
    expect(readFileSync(entry!.file).equals(garbage)).toBe(false);
    expect(await run(['--version'], { AGENT_COLLAB_CACHE_DIR: path.join(cache, 'missing', 'x') }, tempDir())).toEqual(expected);
  });

  it('is not written when switched off, nor by a run that stopped at once', async () => {
    const xdg = tempDir();
    const off = await run(['--version'], { AGENT_COLLAB_CACHE_DIR: '0', XDG_CACHE_HOME: xdg }, tempDir());
    expect(off.code).toBe(0);
    expect(readdirSync(xdg)).toEqual([]);
    const notARepo = await run(['run', '--goal', 'x'], { AGENT_COLLAB_CACHE_DIR: undefined, XDG_CACHE_HOME: xdg }, tempDir());
    expect(notARepo.code).toBe(2);
    expect(notARepo.stderr).toMatch(/not inside a git repository/);
    expect(cacheFiles(path.join(xdg, 'agent-collab', 'v8'), 'run')).toEqual([]);
  });
});
