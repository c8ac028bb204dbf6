// The built CLI is killed (SIGKILL) while the reviewer reads the code: state.json says the code review is under
// way, and `--resume` runs it again and finishes the run, with one commit per step and nothing committed twice.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { gitLog, tempRepoWithFakeScript } from '../../helpers/repo.js';

const PLAN = '# Task: Two files\n\n## Steps\n1. [ ] Add a.txt\n2. [ ] Add b.txt\n';
/** The code review goes on until the test creates `gate`: the kill lands while the reviewer works, at no fixed delay. */
const script = (gate: string) => ({
  rules: [
    { when: { kind: 'write_plan' }, do: { text: PLAN } },
    { when: { kind: 'review' }, do: { verdict: 'APPROVED', text: '## Comments\n1. Fine.' } },
    { when: { kind: 'execute_step', step: 1 }, do: { writeFiles: { 'a.txt': 'a\n' }, text: 'Summary: add a.txt' } },
    { when: { kind: 'execute_step', step: 2 }, do: { writeFiles: { 'b.txt': 'b\n' }, text: 'Summary: add b.txt' } },
    { when: { kind: 'ask_test_command' }, do: { text: 'none' } },
    {
      when: { kind: 'code_review' },
      do: {
        verdict: 'APPROVED',
        text: '## Comments\n1. Fine.',
        run: `until [ -e ${JSON.stringify(gate)} ]; do sleep 0.05; done`,
      },
    },
  ],
});

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('a run killed during its code review', { timeout: 120_000 }, () => {
  it('resumes the code review and finishes, one commit per step', async () => {
    const gateDir = mkdtempSync(path.join(os.tmpdir(), 'ac-gate-'));
    const gate = path.join(gateDir, 'code-review-may-end');
    const repo = tempRepoWithFakeScript(script(gate));
    cleanup = () => {
      repo.cleanup();
      rmSync(gateDir, { recursive: true, force: true });
    };
    const args = ['run', '--auto', '--auto-approve', '--json'];

    const first = runCli([...args, '--goal', 'two files'], { cwd: repo.dir, home: repo.home });
    // The reviewer's first event after the code review began: it is at work on the code.
    let inCodeReview = false;
    await first.waitFor((e) => {
      if (e.event === 'phase' && e.to === 'CODE_REVIEW') inCodeReview = true;
      return inCodeReview && e.event === 'agent' && e.role === 'reviewer';
    });
    first.child.kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');
    writeFileSync(gate, ''); // the resumed code review goes straight through

    const saved = JSON.parse(readFileSync(path.join(repo.dir, '.agent-collab', 'state.json'), 'utf8')) as {
      phase: string;
      inflight: { kind: string; step: number | null } | null;
      codeReview: { diff: string | null } | null;
    };
    expect(saved.phase).toBe('CODE_REVIEW');
    expect(saved.inflight).toMatchObject({ kind: 'code_review', step: null });
    expect(saved.codeReview?.diff).toContain('+b');

    const second = await runCli([...args, '--resume'], { cwd: repo.dir, home: repo.home }).done;
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    const events = second.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.filter((e) => e.event === 'code_review')).toEqual([
      expect.objectContaining({ round: 1, step: null, verdict: 'APPROVED' }),
    ]);
    expect(events.at(-1)).toMatchObject({ event: 'done', phase: 'DONE', exit_code: 0 });
    expect(gitLog(repo.dir)).toEqual(['[Step 2] add b.txt', '[Step 1] add a.txt', 'initial']);
  });
});
