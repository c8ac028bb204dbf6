// The final code review's diff is what the run committed: an edit the person makes while the run
// goes on is not shown to the reviewer as the executor's work.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import { runAutoHeadless } from '../../helpers/headless-run.js';
import { gitLog } from '../../helpers/repo.js';
import { repoWithPassingTests } from './helpers.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

describe('final code review diff', { timeout: 120_000 }, () => {
  it('does not show the reviewer a file the person wrote during the run and nobody committed', async () => {
    const repo = repoWithPassingTests('');
    cleanup = repo.cleanup;
    const planner = new FakeAgent('planner', {
      rules: [
        { when: { kind: 'write_plan' }, do: { text: '# Task: Greet\n\n## Steps\n1. [ ] Add greeting.txt\n' } },
        { when: { step: 1 }, do: { writeFiles: { 'greeting.txt': 'hello\n' }, text: 'Summary: add greeting.txt' } },
      ],
    });
    const reviewer = new FakeAgent('reviewer', {
      rules: [{ do: { verdict: 'APPROVED' as const, text: '## Comments\n1. Fine.' } }],
    });
    let buf = '';
    const out = new Writable({
      write(chunk: Buffer | string, _e, cb) {
        buf += String(chunk);
        // The person saves a file of their own as the last step ends.
        if (buf.includes('"to":"CODE_REVIEW"'))
          writeFileSync(path.join(repo.dir, 'my-notes.txt'), 'PERSONS_OWN_WORK\n');
        cb();
      },
    });
    const { code } = await runAutoHeadless(repo, { planner, reviewer }, { goal: 'greet', stdout: out });
    expect(code).toBe(0);
    expect(gitLog(repo.dir)).toEqual(['[Step 1] add greeting.txt', 'tests', 'initial']);
    const review = reviewer.turns.find((t) => t.turn.meta.kind === 'code_review');
    expect(review?.turn.prompt).toContain('+hello');
    expect(review?.turn.prompt).not.toContain('PERSONS_OWN_WORK');
  });
});
