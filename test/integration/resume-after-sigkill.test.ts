// The engine process is killed with SIGKILL at several points of a run, then restarted with --resume:
// the run finishes with valid files and exactly one commit per step. Before that, a run without --resume finds the
// killed run and leaves it exactly as it was.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import matter from 'gray-matter';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { gitLog, readWork, tempRepoWithFakeScript } from '../helpers/repo.js';

const PLAN =
  '# Task: Three files\n\n## Goal\nThree files.\n\n## Steps\n1. [ ] Add a.txt\n2. [ ] Add b.txt\n3. [ ] Add c.txt\n';
const SCRIPT = {
  rules: [
    { when: { kind: 'write_plan' }, do: { text: PLAN, delayMs: 60 } },
    { when: { kind: 'respond' }, do: { text: PLAN, delayMs: 60 } },
    {
      when: { kind: 'review', iteration: 1 },
      do: { verdict: 'CHANGES_REQUIRED', text: '## Comments\n1. More.', delayMs: 60 },
    },
    { when: { kind: 'review' }, do: { verdict: 'APPROVED', text: '## Comments\n1. Fine.', delayMs: 60 } },
    {
      when: { kind: 'execute_step', step: 1 },
      do: { writeFiles: { 'a.txt': 'a\n' }, text: 'Summary: add a.txt', delayMs: 60 },
    },
    {
      when: { kind: 'execute_step', step: 2 },
      do: { writeFiles: { 'b.txt': 'b\n' }, text: 'Summary: add b.txt', delayMs: 60 },
    },
    {
      when: { kind: 'execute_step', step: 3 },
      do: { writeFiles: { 'c.txt': 'c\n' }, text: 'Summary: add c.txt', delayMs: 60 },
    },
  ],
};

type Ev = Record<string, unknown>;
const KILL_POINTS: Array<{ name: string; at: (e: Ev) => boolean }> = [
  { name: 'while the reviewer works', at: (e) => e.event === 'phase' && e.to === 'REVIEW' },
  { name: 'right after a verdict, before the state is saved', at: (e) => e.event === 'verdict' },
  { name: 'as execution starts', at: (e) => e.event === 'phase' && e.to === 'EXECUTE' },
  {
    name: 'after a step wrote files, before its commit',
    at: (e) => e.event === 'agent' && e.type === 'file_change' && e.path === 'b.txt',
  },
  {
    name: 'at the end of a step’s turn, racing its commit',
    at: (e) => e.event === 'agent' && e.type === 'done' && String(e.text).includes('add c.txt'),
  },
];

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

// A process's own bookkeeping, not the run: its lock (pid), its tag for the processes it owns, its debug log.
const BOOKKEEPING = new Set(['agent-collab.pid', 'owner-tag', 'debug.log'].map((f) => path.join('.agent-collab', f)));

/** The repo's files outside .git but for BOOKKEEPING (path → content), HEAD and git's status: the run's state. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const p = path.join(rel, e.name);
      if (p === '.git' || BOOKKEEPING.has(p)) continue;
      if (e.isDirectory()) walk(p);
      else files[p] = readFileSync(path.join(dir, p), 'latin1');
    }
  };
  walk('');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
  files['<HEAD>'] = git('rev-parse', 'HEAD');
  files['<status>'] = git('status', '--porcelain', '--untracked-files=all');
  return files;
}

function setup() {
  const repo = tempRepoWithFakeScript(SCRIPT);
  cleanup = repo.cleanup;
  return repo;
}

describe('resume after SIGKILL', () => {
  it.each(KILL_POINTS)('killed $name → restart resumes and finishes, no duplicate step commit', async ({ at }) => {
    const repo = setup();
    const args = ['run', '--auto', '--auto-approve', '--json'];

    const first = runCli([...args, '--goal', 'three files'], { cwd: repo.dir, home: repo.home });
    await first.waitFor(at);
    first.child.kill('SIGKILL');
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');

    // Without --resume/--fresh and no terminal, the unfinished run is reported: exit 3, the run's state untouched.
    const killedState = snapshot(repo.dir);
    const asked = await runCli(args, { cwd: repo.dir, home: repo.home }).done;
    expect(asked.code).toBe(3);
    expect(asked.stdout + asked.stderr).toMatch(
      /Unfinished session found \(phase \w+, iteration \d+\).*--resume.*--fresh/,
    );
    expect(snapshot(repo.dir)).toEqual(killedState);

    const second = await runCli([...args, '--resume'], { cwd: repo.dir, home: repo.home }).done;
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    const last = JSON.parse(second.stdout.trim().split('\n').at(-1)!) as Ev;
    expect(last).toMatchObject({ event: 'done', phase: 'DONE', exit_code: 0 });

    const subjects = gitLog(repo.dir);
    expect(subjects.filter((s) => s.startsWith('[Step'))).toEqual([
      '[Step 3] add c.txt',
      '[Step 2] add b.txt',
      '[Step 1] add a.txt',
    ]);
    const state = JSON.parse(readWork(repo.dir, 'state.json')) as Ev;
    expect(state.phase).toBe('DONE');
    const plan = matter(readWork(repo.dir, 'plan.md'));
    expect(plan.data.status).toBe('approved');
    expect(plan.content.match(/\[x\]/g)).toHaveLength(3);
    const comments = matter(readWork(repo.dir, 'comments.md'));
    expect(comments.data.status).toBe('APPROVED');
  });
});
