import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, type Fixture } from './git-fixture.js';

let fx: Fixture;
afterEach(() => fx.cleanup());

/** Step `step` of run `runId` committed against `baseTree`, as the engine commits it. */
const commit = (runId: string, step: number, summary: string, baseTree: string | null) =>
  fx.ws.commitStep({ runId, step, summary, baseTree, allowSecrets: false });

describe('step commits are idempotent per run and step', () => {
  it('a second commitStep for the same run and step (state not saved before a crash) returns the first commit', async () => {
    fx = fixture();
    const base = await fx.ws.snapshot();
    fx.write('a.txt', 'step 1\n');
    const first = await commit('run-9', 1, 'A', base);
    expect(first.kind).toBe('committed');
    // After the restart the engine runs the commit again, with the same base tree; the tree has moved on meanwhile.
    fx.write('b.txt', 'more work\n');
    const again = await commit('run-9', 1, 'A', base);
    expect(again).toEqual({ kind: 'committed', hash: first.kind === 'committed' ? first.hash : '' });
    expect(fx.git('log', '--format=%s').trim().split('\n')).toEqual(['[Step 1] A', 'initial']);
    expect(fx.status()).toEqual(['?? b.txt']);
  });

  it('a crash between the commit and the index update: the commit found again brings the index up to it', async () => {
    fx = fixture();
    fx.write('kept.txt', 'v1\n');
    fx.git('add', 'kept.txt');
    fx.git('commit', '-q', '-m', 'kept');
    const base = await fx.ws.snapshot();
    fx.write('a.txt', 'new file\n');
    fx.write('kept.txt', 'v2\n');
    const first = await commit('run-3', 1, 'A', base);
    expect(first.kind).toBe('committed');
    // As if agent-collab died right after `git commit`: the person's index still has the entries from before it.
    fx.git('read-tree', 'HEAD^');
    expect(fx.status()).toEqual(['?? a.txt', 'D  a.txt', 'MM kept.txt']);
    const again = await commit('run-3', 1, 'A', base);
    expect(again).toEqual({ kind: 'committed', hash: first.kind === 'committed' ? first.hash : '' });
    expect(fx.status()).toEqual([]);
  });

  it('the index catch-up after a crash leaves an entry the person staged since as it is', async () => {
    fx = fixture();
    fx.write('kept.txt', 'v1\n');
    fx.git('add', 'kept.txt');
    fx.git('commit', '-q', '-m', 'kept');
    const base = await fx.ws.snapshot();
    fx.write('kept.txt', 'v2\n');
    await commit('run-4', 1, 'A', base);
    fx.git('read-tree', 'HEAD^');
    fx.write('kept.txt', 'the person’s v3\n');
    fx.git('add', 'kept.txt');
    await commit('run-4', 1, 'A', base);
    expect(fx.git('show', ':kept.txt')).toBe('the person’s v3\n');
  });

  it('another run or another step is not mistaken for it', async () => {
    fx = fixture();
    let base = await fx.ws.snapshot();
    fx.write('a.txt', 'run 1 step 1\n');
    await commit('run-1', 1, 'A', base);
    base = await fx.ws.snapshot();
    fx.write('b.txt', 'run 2 step 1\n');
    const other = await commit('run-2', 1, 'B', base);
    base = await fx.ws.snapshot();
    fx.write('c.txt', 'run 2 step 12\n');
    const twelve = await commit('run-2', 12, 'C', base);
    expect(other.kind).toBe('committed');
    expect(twelve.kind).toBe('committed');
    expect(fx.git('log', '--format=%s').trim().split('\n')).toEqual([
      '[Step 12] C',
      '[Step 1] B',
      '[Step 1] A',
      'initial',
    ]);
  });
});

describe('finding a step commit', () => {
  it('a run id that is a prefix of another run’s id does not find the other run’s commit', async () => {
    fx = fixture();
    let base = await fx.ws.snapshot();
    fx.write('a.txt', 'run-10\n');
    const ten = await commit('run-10', 1, 'Ten', base);
    base = await fx.ws.snapshot();
    fx.write('b.txt', 'run-1\n');
    const one = await commit('run-1', 1, 'One', base);
    expect(one.kind).toBe('committed');
    expect(one).not.toEqual(ten);
    expect(fx.commitFiles()).toEqual(['A\tb.txt']);
  });
});

describe('a new plan in the same run (after Stop)', () => {
  it('commits its own step 1 although the old plan made a [Step 1] commit in this run; the same base still finds its commit', async () => {
    fx = fixture();
    const oldBase = await fx.ws.snapshot();
    fx.write('old.txt', 'old plan step 1\n');
    const old = await commit('run-1', 1, 'Old', oldBase);
    expect(old.kind).toBe('committed');

    // Stop → goal refinement → a new plan; its step 1 starts from the tree as it is now (another base).
    const newBase = await fx.ws.snapshot();
    fx.write('new.txt', 'new plan step 1\n');
    const fresh = await commit('run-1', 1, 'New', newBase);
    expect(fresh.kind).toBe('committed');
    expect(fresh).not.toEqual({ kind: 'committed', hash: old.kind === 'committed' ? old.hash : '' });
    expect(fx.commitFiles()).toEqual(['A\tnew.txt']);
    expect(fx.git('log', '--format=%s').trim().split('\n')).toEqual(['[Step 1] New', '[Step 1] Old', 'initial']);

    // A crash after the new commit: the retried commit with the new plan's base finds it, and makes no other.
    const again = await commit('run-1', 1, 'New', newBase);
    expect(again).toEqual({ kind: 'committed', hash: fresh.kind === 'committed' ? fresh.hash : '' });
    expect(fx.git('log', '--format=%s').trim().split('\n')).toEqual(['[Step 1] New', '[Step 1] Old', 'initial']);
  });
});

describe('finding a step commit in a repo whose log shows signatures', () => {
  it('returns the bare commit hash (no signature lines) when log.showSignature is on and the commit is signed', async () => {
    fx = fixture();
    const key = path.join(fx.dir, '.git', 'signing-key');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', key]);
    fx.git('config', 'gpg.format', 'ssh');
    fx.git('config', 'user.signingkey', key);
    fx.git('config', 'commit.gpgsign', 'true');
    fx.git('config', 'log.showSignature', 'true');
    const base = await fx.ws.snapshot();
    fx.write('a.txt', 'signed step\n');
    const first = await commit('run-s', 1, 'Signed', base);
    expect(first.kind).toBe('committed');
    const again = await commit('run-s', 1, 'Signed', base);
    expect(again).toEqual({ kind: 'committed', hash: fx.git('rev-parse', 'HEAD').trim() });
  });
});

describe('a new plan whose step starts from the old plan’s tree (the old step reverted)', () => {
  it('commits its own step: the step’s start tells the two apart when the base tree does not', async () => {
    fx = fixture();
    const base = await fx.ws.snapshot();
    fx.write('old.txt', 'old plan step 1\n');
    const old = await fx.ws.commitStep({
      runId: 'run-1',
      step: 1,
      summary: 'Old',
      baseTree: base,
      startedAt: '2026-01-01T10:00:00.000Z',
      allowSecrets: false,
    });
    expect(old.kind).toBe('committed');
    fx.git('revert', '--no-edit', 'HEAD');
    expect(await fx.ws.snapshot()).toBe(base);

    fx.write('new.txt', 'new plan step 1\n');
    const opts = {
      runId: 'run-1',
      step: 1,
      summary: 'New',
      baseTree: base,
      startedAt: '2026-01-01T11:00:00.000Z',
      allowSecrets: false,
    };
    const fresh = await fx.ws.commitStep(opts);
    expect(fresh.kind).toBe('committed');
    expect(fx.commitFiles()).toEqual(['A\tnew.txt']);
    // The crash case of this step still finds its commit.
    expect(await fx.ws.commitStep(opts)).toEqual({
      kind: 'committed',
      hash: fresh.kind === 'committed' ? fresh.hash : '',
    });
    expect(fx.git('log', '--format=%s').trim().split('\n')).toEqual([
      '[Step 1] New',
      'Revert "[Step 1] Old"',
      '[Step 1] Old',
      'initial',
    ]);
  });
});

describe('a step commit made before base trailers existed', () => {
  it('is not taken for a step of this version: a new step commits its own files, a restarted one makes no second commit', async () => {
    fx = fixture();
    const base = await fx.ws.snapshot();
    fx.write('a.txt', 'old version step 1\n');
    fx.git('add', 'a.txt');
    fx.git('commit', '-q', '-m', '[Step 1] Old', '-m', 'Agent-Collab-Run: run-1');
    // The same step after an upgrade and a restart: its work is committed already, nothing new is made.
    expect(await commit('run-1', 1, 'Old', base)).toEqual({ kind: 'nothing' });
    // A new plan's step 1 in the same run.
    const newBase = await fx.ws.snapshot();
    fx.write('b.txt', 'new plan step 1\n');
    const fresh = await commit('run-1', 1, 'New', newBase);
    expect(fresh.kind).toBe('committed');
    expect(fx.commitFiles()).toEqual(['A\tb.txt']);
    expect(fx.git('log', '--format=%s').trim().split('\n')).toEqual(['[Step 1] New', '[Step 1] Old', 'initial']);
  });
});
