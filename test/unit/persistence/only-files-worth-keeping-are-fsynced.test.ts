// state.json, plan.md and comments.md survive a power cut (fsync before the rename); the pid file and the copies
// kept to notice outside edits do not need to, and are not fsynced.
import fs from 'node:fs';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeAtomic } from '../../../src/persistence/atomic-write.js';
import { WrittenCopies } from '../../../src/persistence/external-edits.js';
import { acquireInstanceLock } from '../../../src/persistence/instance-lock.js';
import { writeComments, writePlan } from '../../../src/persistence/plan-files.js';
import { newState, writeState } from '../../../src/persistence/state-store.js';
import { tempDir } from './tmp-dir.js';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Whether `fn` fsynced anything (through a FileHandle or the fs functions). */
async function fsyncs(fn: () => Promise<unknown>): Promise<boolean> {
  const handle = await open(process.execPath, 'r');
  const handles = Object.getPrototypeOf(handle) as FileHandle;
  await handle.close();
  const spies = [vi.spyOn(handles, 'sync'), vi.spyOn(fs, 'fsync'), vi.spyOn(fs, 'fsyncSync')];
  try {
    await fn();
    return spies.some((s) => s.mock.calls.length > 0);
  } finally {
    for (const s of spies) s.mockRestore();
  }
}

describe('which writes are fsynced', () => {
  it('writeAtomic fsyncs unless told the file is not worth it, and writes the content either way', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'a', 'f.txt');
    expect(await fsyncs(() => writeAtomic(file, 'one\n'))).toBe(true);
    expect(await readFile(file, 'utf8')).toBe('one\n');
    expect(await fsyncs(() => writeAtomic(file, 'two\n', { durable: false }))).toBe(false);
    expect(await readFile(file, 'utf8')).toBe('two\n');
  });

  it('state.json, plan.md and comments.md are fsynced', async () => {
    const workdir = path.join(await tempDir(), '.agent-collab');
    const state = newState({ runId: 'r1', goal: 'g', mode: 'auto', maxIterations: 3 });
    expect(await fsyncs(() => writeState({ state: path.join(workdir, 'state.json') }, state))).toBe(true);
    expect(
      await fsyncs(() =>
        writePlan(path.join(workdir, 'plan.md'), { body: '## Steps\n1. [ ] One\n', status: 'draft', iteration: 1 }),
      ),
    ).toBe(true);
    expect(
      await fsyncs(() =>
        writeComments(path.join(workdir, 'comments.md'), { body: 'ok', status: 'APPROVED', iteration: 1 }),
      ),
    ).toBe(true);
  });

  it('the copy kept to notice outside edits and the pid file are not', async () => {
    const dir = await tempDir();
    const copies = new WrittenCopies(path.join(dir, '.written'));
    expect(await fsyncs(() => copies.remember('plan', '# Plan\n'))).toBe(false);
    expect(await copies.last('plan')).toBe('# Plan\n');
    let release: (() => Promise<void>) | null = null;
    expect(await fsyncs(async () => (release = await acquireInstanceLock(path.join(dir, '.agent-collab'))))).toBe(
      false,
    );
    expect(await readFile(path.join(dir, '.agent-collab', 'agent-collab.pid'), 'utf8').catch(() => null)).toBe(
      `${process.pid}\n`,
    );
    await (release as (() => Promise<void>) | null)?.();
  });
});
