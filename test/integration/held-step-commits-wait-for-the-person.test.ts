// A step commit held for the person before it is made, end to end with fake agents and real git: a file over
// [safety] max_file_size or more files than max_files_per_step (commit / leave uncommitted / roll back), and agent
// hunks on lines the person had changed (commit both / leave uncommitted / stop). Headless: exit 3, then --decide.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../src/adapters/fake/fake-agent.js';
import type { FakeScript } from '../../src/adapters/fake/script.js';
import { parseDecision } from '../../src/modes/decisions.js';
import { runHeadless, type HeadlessOptions } from '../../src/modes/headless.js';
import { gitLog, sink, tempRepo } from '../helpers/repo.js';

const approve: FakeScript = { rules: [{ do: { verdict: 'APPROVED', text: '## Comments\n1. Fine.' } }] };
const LIMITS = '[safety]\nmax_file_size = "1KB"\nmax_files_per_step = 3\n[test]\nfallback_to_agent = false\n';
const BIG = 'x'.repeat(2048);

function planner(files: Record<string, string>): FakeAgent {
  return new FakeAgent('planner', {
    rules: [
      { when: { kind: 'write_plan' }, do: { text: '## Steps\n1. [ ] Add files\n2. [ ] Add z.txt\n' } },
      { when: { step: 1 }, do: { writeFiles: files, text: 'Summary: add files' } },
      { when: { step: 2 }, do: { writeFiles: { 'z.txt': 'z\n' }, text: 'Summary: add z.txt' } },
    ],
  });
}

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function repo(config = LIMITS) {
  const r = tempRepo(config);
  cleanup = r.cleanup;
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: r.dir, encoding: 'utf8', stdio: 'pipe' });
  return { ...r, git };
}

async function run(r: ReturnType<typeof repo>, p: FakeAgent, extra: Partial<HeadlessOptions> = {}) {
  const out = sink();
  const code = await runHeadless({
    cwd: r.dir,
    homeDir: r.home,
    goal: 'files',
    auto: true,
    autoApprove: true,
    json: true,
    resume: 'ask',
    agents: { planner: p, reviewer: new FakeAgent('reviewer', approve) },
    stdout: out,
    stderr: sink(),
    ...extra,
  });
  return { code, events: out.lines() };
}

const resume = (choice: string): Partial<HeadlessOptions> => ({
  resume: 'resume',
  goal: undefined,
  decision: parseDecision(choice),
});

describe('a step over the size limits is held for the person', () => {
  it('a file over max_file_size: exit 3, the size in the event, nothing committed; “commit” commits it', async () => {
    const r = repo();
    const p = planner({ 'big.bin': BIG, 'small.txt': 's\n' });
    const first = await run(r, p);
    expect(first.code).toBe(3);
    const held = first.events.find((e) => e.event === 'needs_human');
    expect(held).toMatchObject({
      kind: 'large_change',
      step: 1,
      large: { files: [{ path: 'big.bin', bytes: 2048 }], count: 2, maxFileBytes: 1024, maxFiles: 3 },
    });
    expect(String(held?.hint)).toContain('big.bin: 2.0 KB (over 1.0 KB)');
    expect(gitLog(r.dir)).toEqual(['initial']);

    const second = await run(r, p, resume('commit'));
    expect(second.code).toBe(0);
    expect(gitLog(r.dir)).toEqual(['[Step 2] add z.txt', '[Step 1] add files', 'initial']);
    expect(r.git('show', 'HEAD~1:big.bin')).toBe(BIG);
  });

  it('more files than max_files_per_step: held with the count; “leave” goes on and leaves them uncommitted', async () => {
    const r = repo();
    const p = planner({ 'f1.txt': '1\n', 'f2.txt': '2\n', 'f3.txt': '3\n', 'f4.txt': '4\n' });
    const first = await run(r, p);
    expect(first.code).toBe(3);
    expect(first.events.find((e) => e.event === 'needs_human')).toMatchObject({
      kind: 'large_change',
      large: { files: [], count: 4, maxFiles: 3 },
    });

    const second = await run(r, p, resume('leave'));
    expect(second.code).toBe(0);
    expect(gitLog(r.dir)).toEqual(['[Step 2] add z.txt', 'initial']);
    expect(r.git('status', '--porcelain', '--', 'f1.txt', 'f4.txt').trim().split('\n')).toEqual([
      '?? f1.txt',
      '?? f4.txt',
    ]);
  });

  it('“rollback” removes the step’s files and waits at the rolled-back step', async () => {
    const r = repo();
    const p = planner({ 'big.bin': BIG });
    expect((await run(r, p)).code).toBe(3);
    const second = await run(r, p, resume('rollback'));
    expect(second.code).toBe(3);
    expect(second.events.filter((e) => e.event === 'needs_human').at(-1)).toMatchObject({
      kind: 'step_failed',
      rolledBack: true,
    });
    expect(existsSync(path.join(r.dir, 'big.bin'))).toBe(false);
    expect(gitLog(r.dir)).toEqual(['initial']);
  });
});

describe('agent hunks on lines the person changed are held for the person', () => {
  const NOTES = 'n1\nn2\nn3\nn4\nn5\nn6\nn7\nn8\n';

  /** notes.txt committed; the person has changed line 2 (unstaged); the agent changes line 2 and line 8. */
  function overlapping() {
    const r = repo('[test]\nfallback_to_agent = false\n');
    writeFileSync(path.join(r.dir, 'notes.txt'), NOTES);
    r.git('add', 'notes.txt');
    r.git('commit', '-q', '-m', 'notes');
    const person = NOTES.replace('n2', 'n2 PERSON');
    writeFileSync(path.join(r.dir, 'notes.txt'), person);
    const agent = person.replace('n2 PERSON', 'n2 PERSON+AGENT').replace('n8', 'n8 AGENT');
    return { r, person, agent, p: planner({ 'notes.txt': agent }) };
  }

  it('exit 3 naming the file; nothing committed and the person’s edit still unstaged', async () => {
    const { r, agent, p } = overlapping();
    const first = await run(r, p);
    expect(first.code).toBe(3);
    expect(first.events.find((e) => e.event === 'needs_human')).toMatchObject({
      kind: 'hunks_overlap',
      step: 1,
      files: ['notes.txt'],
    });
    expect(gitLog(r.dir)).toEqual(['notes', 'initial']);
    expect(r.git('status', '--porcelain', '--', 'notes.txt')).toBe(' M notes.txt\n');
    expect(readFileSync(path.join(r.dir, 'notes.txt'), 'utf8')).toBe(agent);
  });

  it('“commit-both” commits the file whole, the person’s line included', async () => {
    const { r, agent, p } = overlapping();
    expect((await run(r, p)).code).toBe(3);
    expect((await run(r, p, resume('commit-both'))).code).toBe(0);
    expect(gitLog(r.dir)).toEqual(['[Step 2] add z.txt', '[Step 1] add files', 'notes', 'initial']);
    expect(r.git('show', 'HEAD~1:notes.txt')).toBe(agent);
  });

  it('“leave” goes on without committing the file', async () => {
    const { r, agent, p } = overlapping();
    expect((await run(r, p)).code).toBe(3);
    expect((await run(r, p, resume('leave'))).code).toBe(0);
    expect(gitLog(r.dir)).toEqual(['[Step 2] add z.txt', 'notes', 'initial']);
    expect(readFileSync(path.join(r.dir, 'notes.txt'), 'utf8')).toBe(agent);
  });

  it('“stop” stops execution with nothing committed', async () => {
    const { r, p } = overlapping();
    expect((await run(r, p)).code).toBe(3);
    const stopped = await run(r, p, resume('stop'));
    expect(stopped.code).toBe(3);
    expect(stopped.events.filter((e) => e.event === 'needs_human').at(-1)).toMatchObject({ kind: 'goal' });
    expect(gitLog(r.dir)).toEqual(['notes', 'initial']);
  });
});
