// A step commit snapshots the working tree just before `git commit`. When git's trace shows the commit started no
// process (no hook, no signing program), the tree cannot have changed, and in auto mode the next step starts from
// that snapshot instead of taking one of its own (two git processes less between steps). A hook that may rewrite
// files, a person's own git trace, or a pause before the next step all get a fresh snapshot.
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import { traceStartedNothing } from '../../../src/adapters/git/commit-trace.js';
import { runHeadless } from '../../../src/modes/headless.js';
import { recordGitCalls } from '../../helpers/git-calls.js';
import { gitLog, sink, tempRepo } from '../../helpers/repo.js';
import { fixture, type Fixture } from './git-fixture.js';

let fx: Fixture | undefined;
const after: Array<() => void> = [];
afterEach(() => {
  for (const f of after.splice(0)) f();
  fx?.cleanup();
  fx = undefined;
});

function hook(dir: string, name: string, body: string): void {
  const file = path.join(dir, '.git', 'hooks', name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
}

describe('the tree after a step commit', () => {
  it('is the snapshot taken before it when the commit started nothing', async () => {
    fx = fixture();
    const base = await fx.ws.snapshot();
    fx.write('a.txt', 'a\n');
    fx.write('notes.txt', 'the person’s, left out of the commit\n');
    const r = await fx.ws.commitStep({ runId: 'run-1', step: 1, summary: 'Add a', baseTree: base, allowSecrets: false, checkExisting: false });
    expect(r.kind).toBe('committed');
    expect(r.kind === 'committed' && r.treeAfter).toBe(await fx.ws.snapshot());
  });

  it('is not known when a hook ran (one that rewrites a file, or any other)', async () => {
    fx = fixture();
    const f = fx;
    hook(f.dir, 'pre-commit', 'printf "formatted\\n" > a.txt && git add a.txt');
    const base = await f.ws.snapshot();
    f.write('a.txt', 'a\n');
    const r = await f.ws.commitStep({ runId: 'run-1', step: 1, summary: 'Add a', baseTree: base, allowSecrets: false, checkExisting: false });
    expect(r).toMatchObject({ kind: 'committed' });
    expect(r.kind === 'committed' && r.treeAfter).toBeUndefined();
    expect(f.read('a.txt')).toBe('formatted\n');

    hook(f.dir, 'post-commit', 'true');
    const base2 = await f.ws.snapshot();
    f.write('b.txt', 'b\n');
    const r2 = await f.ws.commitStep({ runId: 'run-1', step: 2, summary: 'Add b', baseTree: base2, allowSecrets: false, checkExisting: false });
    expect(r2).toMatchObject({ kind: 'committed' });
    expect(r2.kind === 'committed' && r2.treeAfter).toBeUndefined();
  });

  it('is not known when the person traces git themselves (their trace is left alone)', async () => {
    fx = fixture();
    const trace = path.join(fx.dir, '..', `own-trace-${process.pid}.json`);
    process.env.GIT_TRACE2_EVENT = trace;
    after.push(() => delete process.env.GIT_TRACE2_EVENT);
    const base = await fx.ws.snapshot();
    fx.write('a.txt', 'a\n');
    const r = await fx.ws.commitStep({ runId: 'run-1', step: 1, summary: 'Add a', baseTree: base, allowSecrets: false, checkExisting: false });
    expect(r.kind === 'committed' && r.treeAfter).toBeUndefined();
  });

  it('reads only a complete trace without child processes as “started nothing”', () => {
    const ev = (e: Record<string, unknown>): string => JSON.stringify(e);
    expect(traceStartedNothing([ev({ event: 'start' }), ev({ event: 'region_enter' }), ev({ event: 'exit', code: 0 }), ev({ event: 'atexit' }), ''].join('\n'))).toBe(true);
    expect(traceStartedNothing([ev({ event: 'start' }), ev({ event: 'child_start', child_class: 'hook' }), ev({ event: 'exit' })].join('\n'))).toBe(false);
    expect(traceStartedNothing(ev({ event: 'start' }))).toBe(false); // cut short
    expect(traceStartedNothing(`${ev({ event: 'start' })}\n{not json\n${ev({ event: 'exit' })}`)).toBe(false);
    expect(traceStartedNothing('')).toBe(false);
  });
});

describe('steps in auto mode', () => {
  function agents() {
    return {
      planner: new FakeAgent('planner', {
        rules: [
          { when: { kind: 'write_plan' }, do: { text: '## Steps\n1. [ ] Add a.txt\n2. [ ] Add b.txt\n3. [ ] Add c.txt\n' } },
          { when: { step: 1 }, do: { writeFiles: { 'a.txt': 'a\n' }, text: 'Summary: add a.txt' } },
          { when: { step: 2 }, do: { writeFiles: { 'b.txt': 'b\n' }, text: 'Summary: add b.txt' } },
          { when: { step: 3 }, do: { writeFiles: { 'c.txt': 'c\n' }, text: 'Summary: add c.txt' } },
        ],
      }),
      reviewer: new FakeAgent('reviewer', { rules: [{ do: { verdict: 'APPROVED', text: 'Fine.' } }] }),
    };
  }

  async function snapshotsOfARun(setUp: (dir: string) => void): Promise<{ snapshots: number; commits: string[] }> {
    const repo = tempRepo();
    after.push(repo.cleanup);
    setUp(repo.dir);
    const git = recordGitCalls();
    after.push(git.restore);
    const code = await runHeadless({ cwd: repo.dir, homeDir: repo.home, goal: 'abc', auto: true, autoApprove: true, json: true, resume: 'ask', agents: agents(), stdout: sink(), stderr: sink() });
    expect(code).toBe(0);
    return { snapshots: git.calls().filter((c) => c === 'add -A').length, commits: gitLog(repo.dir).filter((m) => m.startsWith('[Step ')) };
  }

  it('take the base of steps 2 and 3 from the commits before them: one snapshot before step 1 and one per commit', async () => {
    const run = await snapshotsOfARun(() => undefined);
    expect(run.commits).toHaveLength(3);
    expect(run.snapshots).toBe(1 + 3);
  });

  it('snapshot anew before each step when a hook runs at each commit', async () => {
    const run = await snapshotsOfARun((dir) => hook(dir, 'post-commit', 'true'));
    expect(run.commits).toHaveLength(3);
    expect(run.snapshots).toBe(3 + 3);
  });
});
