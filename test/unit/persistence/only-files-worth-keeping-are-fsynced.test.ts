// state.json, plan.md and comments.md survive a power cut (fsync before the rename); the pid file and the copies
// kept to notice outside edits do not need to, and skip the fsync that costs milliseconds beside a busy git.
import fs from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeAtomic } from '../../../src/persistence/file-lock.js';
import { WrittenCopies } from '../../../src/persistence/external-edits.js';
import { acquireInstanceLock } from '../../../src/persistence/instance-lock.js';
import { newState, writeState } from '../../../src/persistence/state-store.js';
import { tempDir } from './tmp-dir.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Whether what `fn` wrote was flushed to disk (fsynced). */
async function fsynced(fn: () => Promise<unknown>): Promise<boolean> {
  const spy = vi.spyOn(fs, 'fsyncSync');
  try {
    await fn();
    return spy.mock.calls.length > 0;
  } finally {
    spy.mockRestore();
  }
}

describe('which writes are fsynced', () => {
  it('writeAtomic fsyncs unless told the file is not worth it, and writes the content either way', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'a', 'f.txt');
    expect(await fsynced(() => writeAtomic(file, 'one\n'))).toBe(true);
    expect(await readFile(file, 'utf8')).toBe('one\n');
    expect(await fsynced(() => writeAtomic(file, 'two\n', { durable: false }))).toBe(false);
    expect(await readFile(file, 'utf8')).toBe('two\n');
  });

  it('state.json is fsynced', async () => {
    const workdir = path.join(await tempDir(), '.agent-collab');
    const state = newState({ runId: 'r1', goal: 'g', mode: 'auto', maxIterations: 3 });
    expect(await fsynced(() => writeState({ state: path.join(workdir, 'state.json') }, state))).toBe(true);
  });

  it('the copy kept to notice outside edits and the pid file are not', async () => {
    const dir = await tempDir();
    const copies = new WrittenCopies(path.join(dir, '.written'));
    expect(await fsynced(() => copies.remember('plan', '# Plan\n'))).toBe(false);
    expect(await copies.last('plan')).toBe('# Plan\n');
    let release: (() => Promise<void>) | null = null;
    expect(await fsynced(async () => (release = await acquireInstanceLock(path.join(dir, '.agent-collab'))))).toBe(false);
    expect(await readFile(path.join(dir, '.agent-collab', 'agent-collab.pid'), 'utf8').catch(() => null)).toBe(`${process.pid}\n`);
    await (release as (() => Promise<void>) | null)?.();
  });
});
