import { afterEach, describe, expect, it } from 'vitest';
import { fixture, type Fixture } from './git-fixture.js';

let fx: Fixture;
afterEach(() => fx.cleanup());

describe('step commits are idempotent per run and step', () => {
  it('a second commitStep for the same run and step (state not saved before a crash) returns the first commit', async () => {
    fx = fixture();
    const base = await fx.ws.snapshot();
    fx.write('a.txt', 'step 1\n');
    const first = await fx.ws.commitStep({ runId: 'run-9', step: 1, summary: 'A', baseTree: base, allowSecrets: false });
    expect(first.kind).toBe('committed');
    // After the restart the engine runs the commit again, with the same base tree; the tree has moved on meanwhile.
    fx.write('b.txt', 'more work\n');
    const again = await fx.ws.commitStep({ runId: 'run-9', step: 1, summary: 'A', baseTree: base, allowSecrets: false });
    expect(again).toEqual({ kind: 'committed', hash: first.kind === 'committed' ? first.hash : '' });
    expect(fx.git('log', '--format=%s').trim().split('\n')).toEqual(['[Step 1] A', 'initial']);
    expect(fx.status()).toEqual(['?? b.txt']);
  });

  it('another run or another step is not mistaken for it', async () => {
    fx = fixture();
    let base = await fx.ws.snapshot();
    fx.write('a.txt', 'run 1 step 1\n');
    await fx.ws.commitStep({ runId: 'run-1', step: 1, summary: 'A', baseTree: base, allowSecrets: false });
    base = await fx.ws.snapshot();
    fx.write('b.txt', 'run 2 step 1\n');
    const other = await fx.ws.commitStep({ runId: 'run-2', step: 1, summary: 'B', baseTree: base, allowSecrets: false });
    base = await fx.ws.snapshot();
    fx.write('c.txt', 'run 2 step 12\n');
    const twelve = await fx.ws.commitStep({ runId: 'run-2', step: 12, summary: 'C', baseTree: base, allowSecrets: false });
    expect(other.kind).toBe('committed');
    expect(twelve.kind).toBe('committed');
    expect(fx.git('log', '--format=%s').trim().split('\n')).toEqual(['[Step 12] C', '[Step 1] B', '[Step 1] A', 'initial']);
  });
});

describe('finding a step commit', () => {
  it('a run id that is a prefix of another run’s id does not find the other run’s commit', async () => {
    fx = fixture();
    let base = await fx.ws.snapshot();
    fx.write('a.txt', 'run-10\n');
    const ten = await fx.ws.commitStep({ runId: 'run-10', step: 1, summary: 'Ten', baseTree: base, allowSecrets: false });
    base = await fx.ws.snapshot();
    fx.write('b.txt', 'run-1\n');
    const one = await fx.ws.commitStep({ runId: 'run-1', step: 1, summary: 'One', baseTree: base, allowSecrets: false });
    expect(one.kind).toBe('committed');
    expect(one).not.toEqual(ten);
    expect(fx.commitFiles()).toEqual(['A\tb.txt']);
  });
});
