// Issue 18, item 10: an answer with two different verdict markers in its first lines is unclear: the reviewer is
// asked again, then the person decides; the plan is never approved by it.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import type { FakeScript } from '../../../src/adapters/fake/script.js';
import { runHeadless } from '../../../src/modes/headless.js';
import { gitLog, readWork, sink, tempRepo } from '../../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

const TWO_VERDICTS: FakeScript = {
  rules: [
    { when: { kind: 'review' }, do: { text: '[APPROVED]\n[CHANGES_REQUIRED]\n\n## Comments\n1. Step 2 is wrong.' } },
  ],
};

describe('a reviewer answer with two verdicts', () => {
  it('is asked again, then waits for the person as an unclear verdict; the plan is not approved and nothing runs', async () => {
    const repo = tempRepo('[safety]\nsandbox = "off"\n');
    cleanup = repo.cleanup;
    const reviewer = new FakeAgent('reviewer', TWO_VERDICTS, { sessionPrefix: 'r' });
    const out = sink();
    const code = await runHeadless({
      cwd: repo.dir,
      homeDir: repo.home,
      goal: 'g',
      auto: true,
      autoApprove: true,
      json: true,
      resume: 'fresh',
      agents: { planner: new FakeAgent('planner', { rules: [] }, { sessionPrefix: 'p' }), reviewer },
      stdout: out,
      stderr: sink(),
    });
    const events = out.lines();
    expect(code).toBe(3);
    const verdicts = events.filter((e) => e.event === 'verdict').map((e) => e.verdict);
    expect(verdicts).toEqual(['UNCLEAR', 'UNCLEAR']); // the first answer, then the answer to the re-ask
    expect(events.find((e) => e.event === 'needs_human')).toMatchObject({ kind: 'unclear_verdict', phase: 'REVIEW' });
    expect(readWork(repo.dir, 'plan.md')).not.toMatch(/^status: approved$/m);
    expect(readWork(repo.dir, 'log.md')).toContain('two different verdicts');
    expect(gitLog(repo.dir)).toEqual(['initial']); // no step ran
  });
});
