// An atomic write replaces the file whole, keeps its mode and the symlink pointing at it, and leaves no temp file.
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeAtomic } from '../../../src/persistence/atomic-write.js';
import { tempDir } from './tmp-dir.js';

describe('writeAtomic', () => {
  it('creates the directory and the file, then replaces it keeping its mode; no temp file is left', async () => {
    const dir = path.join(await tempDir(), 'a', 'b');
    const file = path.join(dir, 'plan.md');
    await writeAtomic(file, 'one\n');
    chmodSync(file, 0o600);
    await writeAtomic(file, 'two\n', { durable: false });
    expect(readFileSync(file, 'utf8')).toBe('two\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['plan.md']);
  });

  it('writes through a symlink to its target', async () => {
    const dir = await tempDir();
    writeFileSync(path.join(dir, 'real.md'), 'old\n');
    symlinkSync(path.join(dir, 'real.md'), path.join(dir, 'link.md'));
    await writeAtomic(path.join(dir, 'link.md'), 'new\n');
    expect(readFileSync(path.join(dir, 'real.md'), 'utf8')).toBe('new\n');
    expect(readdirSync(dir).sort()).toEqual(['link.md', 'real.md']);
  });

  it('a write that cannot land rejects and leaves no temp file', async () => {
    const dir = await tempDir();
    mkdirSync(path.join(dir, 'plan.md')); // a directory where the file should go: the rename fails
    await expect(writeAtomic(path.join(dir, 'plan.md'), 'x')).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(['plan.md']);
  });
});
