// The diff a code reviewer reads (GitStepWorkspace.reviewDiff): what the run committed and nothing the person
// committed or left uncommitted, text only, read up to a cap, and stopped with the round.
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, type Fixture } from '../execution/git-fixture.js';

let fx: Fixture;
afterEach(() => fx.cleanup());

const never = new AbortController().signal;

async function step(runId: string, n: number, file: string, content: string | Buffer): Promise<void> {
  const base = await fx.ws.snapshot();
  fx.write(file, content);
  const r = await fx.ws.commitStep({ runId, step: n, summary: `write ${file}`, baseTree: base, allowSecrets: false });
  expect(r.kind).toBe('committed');
}

describe('code review diff', { timeout: 60_000 }, () => {
  it("holds the run's step commits but not a commit the person made between them nor their uncommitted edits", async () => {
    fx = fixture();
    await step('run-1', 1, 'a.txt', 'step one\n');
    fx.write('mine.txt', 'PERSONS_COMMIT\n');
    fx.git('add', 'mine.txt');
    fx.git('commit', '-q', '-m', 'my own work');
    await step('run-1', 2, 'b.txt', 'step two\n');
    fx.write('draft.txt', 'PERSONS_DRAFT\n');

    const d = await fx.ws.reviewDiff({ kind: 'run', runId: 'run-1' }, { signal: never, maxBytes: 100_000 });
    expect(d.files.sort()).toEqual(['a.txt', 'b.txt']);
    expect(d.patch).toContain('+step one');
    expect(d.patch).toContain('+step two');
    expect(d.patch).not.toContain('PERSONS_');
    expect(d.truncated).toBe(false);
  });

  it('after the person edited the code for the review, holds their uncommitted edits too', async () => {
    fx = fixture();
    await step('run-1', 1, 'a.txt', 'step one\n');
    fx.write('a.txt', 'step one\nPERSONS_FIX\n');
    const d = await fx.ws.reviewDiff(
      { kind: 'run', runId: 'run-1', withWorkingTree: true },
      { signal: never, maxBytes: 100_000 },
    );
    expect(d.files).toEqual(['a.txt']);
    expect(d.patch).toContain('+step one');
    expect(d.patch).toContain('+PERSONS_FIX');
  });

  it('holds nothing of an earlier run', async () => {
    fx = fixture();
    await step('run-0', 1, 'old.txt', 'earlier run\n');
    await step('run-1', 1, 'new.txt', 'this run\n');
    const d = await fx.ws.reviewDiff({ kind: 'run', runId: 'run-1' }, { signal: never, maxBytes: 100_000 });
    expect(d.files).toEqual(['new.txt']);
    expect(d.patch).not.toContain('earlier run');
  });

  it('names a binary file without its bytes and reads no more than the cap', async () => {
    fx = fixture();
    const base = await fx.ws.snapshot();
    fx.write('img.bin', Buffer.from([0, 1, 2, 255, 0, 10, 0]));
    fx.write('big.txt', `${'a line of text\n'.repeat(20_000)}`);
    const d = await fx.ws.reviewDiff({ kind: 'step', baseTree: base }, { signal: never, maxBytes: 10_000 });
    expect(d.files.sort()).toEqual(['big.txt', 'img.bin']);
    expect(d.truncated).toBe(true);
    expect(Buffer.byteLength(d.patch)).toBeLessThanOrEqual(10_000);
    expect(d.patch).not.toContain('GIT binary patch');
  });

  it('is stopped by the round’s signal', async () => {
    fx = fixture();
    await step('run-1', 1, 'a.txt', 'step one\n');
    const stop = new AbortController();
    stop.abort();
    await expect(
      fx.ws.reviewDiff({ kind: 'run', runId: 'run-1' }, { signal: stop.signal, maxBytes: 1_000 }),
    ).resolves.toMatchObject({ patch: '' });
  });
});
