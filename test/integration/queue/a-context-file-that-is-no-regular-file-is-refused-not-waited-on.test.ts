// A context file named by an instruction (or the project's `.agent-collab/context.md`) is read into every prompt.
// One that is a named pipe would block the read, and the queue or run with it, forever; one of gigabytes would be
// read whole to be cut to 16,000 characters. The first is refused in one line, the second read only as far as used.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readContextLayers } from '../../../src/queue/context-files.js';

let dir: string | undefined;
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

describe('context files that are not ordinary', () => {
  it('refuses a named pipe as a context file in one line instead of waiting for a writer', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'ac-ctx-'));
    mkdirSync(path.join(dir, 'api'));
    execFileSync('mkfifo', [path.join(dir, 'api', 'context.md')]);
    const read = await readContextLayers(dir, ['api']);
    expect(read).toEqual({
      ok: false,
      reason: 'context file api/context.md is not a regular file; replace it with one',
    });

    mkdirSync(path.join(dir, '.agent-collab'));
    execFileSync('mkfifo', [path.join(dir, '.agent-collab', 'context.md')]);
    const project = await readContextLayers(dir, []);
    expect(project.ok).toBe(false);
  }, 10_000);

  it('reads a huge context file only as far as a prompt can use it', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'ac-ctx-'));
    mkdirSync(path.join(dir, 'big'));
    writeFileSync(path.join(dir, 'big', 'context.md'), 'x'.repeat(8 * 1024 * 1024));
    const read = await readContextLayers(dir, ['big']);
    expect(read.ok).toBe(true);
    const text = read.ok ? (read.layers[0]?.text ?? '') : '';
    expect(text.length).toBeGreaterThanOrEqual(16_000);
    expect(text.length).toBeLessThan(1024 * 1024 + 200);
  }, 10_000);
});
