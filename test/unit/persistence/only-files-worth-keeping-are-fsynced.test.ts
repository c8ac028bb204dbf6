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

/** How many fsyncs `fn` made. */
async function fsyncsOf(fn: () => Promise<unknown>): Promise<number> {
  const spy = vi.spyOn(fs, 'fsyncSync');
  try {
    await fn();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

describe('which writes are fsynced', () => {
  it('writeAtomic fsyncs unless told the file is not worth it, and writes the content either way', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'a', 'f.txt');
    expect(await fsyncsOf(() => writeAtomic(file, 'one\n'))).toBe(1);
    expect(await readFile(file, 'utf8')).toBe('one\n');
    expect(await fsyncsOf(() => writeAtomic(file, 'two\n', { durable: false }))).toBe(0);
    expect(await readFile(file, 'utf8')).toBe('two\n');
  });

  it('state.json is fsynced', async () => {
    const workdir = path.join(await tempDir(), '.agent-collab');
    const state = newState({ runId: 'r1', goal: 'g', mode: 'auto', maxIterations: 3 });
    expect(await fsyncsOf(() => writeState({ state: path.join(workdir, 'state.json') }, state))).toBe(1);
  });

  it('the copy kept to notice outside edits and the pid file are not', async () => {
    const dir = await tempDir();
    const copies = new WrittenCopies(path.join(dir, '.written'));
    expect(await fsyncsOf(() => copies.remember('plan', '# Plan\n'))).toBe(0);
    expect(await copies.last('plan')).toBe('# Plan\n');
    let release: (() => Promise<void>) | null = null;
    expect(await fsyncsOf(async () => (release = await acquireInstanceLock(path.join(dir, '.agent-collab'))))).toBe(0);
    expect(await readFile(path.join(dir, '.agent-collab', 'agent-collab.pid'), 'utf8').catch(() => null)).toBe(`${process.pid}\n`);
    await (release as (() => Promise<void>) | null)?.();
  });
});
