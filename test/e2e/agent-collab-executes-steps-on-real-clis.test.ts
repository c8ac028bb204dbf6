/**
 * The executor on the real CLIs: codex plans and executes a 2-step plan (a shell command, then apply_patch), claude
 * approves; agent-collab runs the repo's tests after each step, step 2 fails them once and passes on the retry that
 * fed the failure back to codex, and each step ends with its own commit. Run `npm run build` first (`npm test` does).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe } from 'vitest';
import { events, gitSubjects, readState } from './agent-collab-run.js';
import { it } from './agent-collab-fixture.js';
import { describeRun } from './harness.js';
import { reply } from './llm-server.js';

const PLAN = ['# Plan', '', '## Steps', '1. [ ] Create a.txt', '2. [ ] Create calc.txt holding the result 2', ''].join(
  '\n',
);

/** The repo's test: fails while calc.txt says BROKEN. */
const CHECK =
  "const fs = require('fs');\nif (fs.existsSync('calc.txt') && fs.readFileSync('calc.txt', 'utf8').includes('BROKEN')) {\n  console.error('calc.txt: expected 2, got BROKEN');\n  process.exit(1);\n}\nconsole.log('checks passed');\n";

describe('agent-collab executes a plan on the real CLIs', () => {
  it('a 2-step plan ends with its commits; tests run after each step; a failing step passes on the retry', async ({
    ac,
    expect,
  }) => {
    const { server, repo } = ac;
    writeFileSync(path.join(repo, 'check.js'), CHECK);
    execFileSync('git', ['add', 'check.js'], { cwd: repo });
    execFileSync('git', ['commit', '-q', '-m', 'add check.js'], { cwd: repo });
    ac.config({ testCommand: 'node check.js' });

    server.openai.push(
      reply.text(PLAN),
      reply.execCommand('printf "A\\n" > a.txt'),
      reply.text('Created a.txt.\nSummary: add a.txt'),
      reply.applyPatch('*** Begin Patch\n*** Add File: calc.txt\n+BROKEN\n*** End Patch\n'),
      reply.text('Created calc.txt.\nSummary: add calc.txt'),
      // the retry: the prompt carries the failing output
      reply.applyPatch('*** Begin Patch\n*** Update File: calc.txt\n@@\n-BROKEN\n+2\n*** End Patch\n'),
      reply.text('Fixed calc.txt.\nSummary: add calc.txt'),
    );
    server.anthropic.push(reply.text('[APPROVED]\n\nGood plan.'));

    const r = await ac.run(['run', '--goal', 'two files', '--auto', '--auto-approve'], 90_000);
    expect(r.code, describeRun(r)).toBe(0);

    expect(gitSubjects(repo)).toEqual(['[Step 2] add calc.txt', '[Step 1] add a.txt', 'add check.js', 'initial']);
    const tests = events(r, 'tests').map((e) => `${String(e.step)}.${String(e.attempt)} ${e.passed ? 'pass' : 'fail'}`);
    expect(tests).toEqual(['1.1 pass', '2.1 fail', '2.2 pass']);
    expect(readFileSync(path.join(repo, 'a.txt'), 'utf8')).toBe('A\n');
    expect(readFileSync(path.join(repo, 'calc.txt'), 'utf8')).toBe('2\n');

    // The retry went to codex in the same thread, with the failing test output.
    const retry = server.openai.requests.find((q) => q.rawBody.includes('The tests failed after your work on step 2'));
    expect(retry, 'no retry prompt reached codex').toBeDefined();
    expect(retry?.rawBody).toContain('calc.txt: expected 2, got BROKEN');
    expect(retry?.rawBody).toContain('Create calc.txt holding the result 2');

    // Each step's commit holds only its own file.
    const show = (rev: string) =>
      execFileSync('git', ['show', '--name-only', '--format=', rev], { cwd: repo, encoding: 'utf8' }).trim();
    expect([show('HEAD~1'), show('HEAD')]).toEqual(['a.txt', 'calc.txt']);

    const state = readState(repo) as unknown as { runId: string; phase: string };
    expect(state.phase).toBe('DONE');
    const attempt = path.join(repo, '.agent-collab', 'runs', state.runId, 'step-2', 'attempt-1');
    expect(JSON.parse(readFileSync(path.join(attempt, 'verdict.json'), 'utf8'))).toMatchObject({
      result: 'fail',
      category: 'test_failure',
    });
    expect(existsSync(path.join(attempt, 'events.jsonl'))).toBe(true);
    expect(readFileSync(path.join(attempt, 'patch.diff'), 'utf8')).toContain('+BROKEN');
    expect(server.openai.pending + server.anthropic.pending).toBe(0);
  });

  it('with --worktree, the boxed step commit lands on agent-collab/<name> in the linked worktree; the checkout stays', async ({
    ac,
    expect,
  }) => {
    const { server, repo } = ac;
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' });
    server.openai.push(
      reply.text('# Plan\n\n## Steps\n1. [ ] Create a.txt\n'),
      reply.applyPatch('*** Begin Patch\n*** Add File: a.txt\n+A\n*** End Patch\n'),
      reply.text('Created a.txt.\nSummary: add a.txt'),
    );
    server.anthropic.push(reply.text('[APPROVED]\n\nGood plan.'));

    const r = await ac.run(['run', '--worktree', 'e2e', '--goal', 'one file', '--auto', '--auto-approve'], 90_000);
    expect(r.code, describeRun(r)).toBe(0);
    const wt = `${repo}-agent-collab/e2e`;
    expect(gitSubjects(wt)).toEqual(['[Step 1] add a.txt', 'initial']);
    expect(readFileSync(path.join(wt, 'a.txt'), 'utf8')).toBe('A\n');
    expect(execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' })).toBe(head);
    expect(existsSync(path.join(repo, 'a.txt'))).toBe(false);
  });
});
