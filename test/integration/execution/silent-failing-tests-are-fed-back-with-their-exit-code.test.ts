// A test command that fails without printing anything still tells the next attempt that it failed: the retry gets
// the fix prompt with "exit code N, no output", never the plain execute prompt as if nothing had gone wrong.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import { runHeadless } from '../../../src/modes/headless.js';
import { gitLog, sink, tempRepo } from '../../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

it('a silent test failure (exit 3, no output) is fed back to the retry as "exit code 3, no output"', async () => {
  const repo = tempRepo('[test]\ndefault_command = "node check.js"\n');
  cleanup = repo.cleanup;
  // Fails with exit code 3 and not a byte of output while calc.js says BROKEN.
  writeFileSync(
    path.join(repo.dir, 'check.js'),
    "const fs = require('fs');\nif (fs.existsSync('calc.js') && fs.readFileSync('calc.js', 'utf8').includes('BROKEN')) process.exit(3);\n",
  );
  execFileSync('git', ['add', '-A'], { cwd: repo.dir });
  execFileSync('git', ['commit', '-q', '-m', 'tests'], { cwd: repo.dir });
  const planner = new FakeAgent('planner', {
    rules: [
      { when: { kind: 'write_plan' }, do: { text: '## Steps\n1. [ ] Add calc.js\n' } },
      { when: { step: 1 }, times: 1, do: { writeFiles: { 'calc.js': 'BROKEN\n' }, text: 'Summary: add calc.js' } },
      { when: { step: 1 }, do: { writeFiles: { 'calc.js': 'module.exports = 2;\n' }, text: 'Summary: add calc.js' } },
    ],
  });
  const reviewer = new FakeAgent('reviewer', {
    rules: [{ do: { verdict: 'APPROVED', text: '## Comments\n1. Fine.' } }],
  });
  const code = await runHeadless({
    cwd: repo.dir,
    homeDir: repo.home,
    goal: 'calc',
    auto: true,
    autoApprove: true,
    json: true,
    resume: 'ask',
    agents: { planner, reviewer },
    stdout: sink(),
    stderr: sink(),
  });
  expect(code).toBe(0);
  expect(gitLog(repo.dir)[0]).toBe('[Step 1] add calc.js');
  const attempts = planner.turns.filter((t) => t.turn.meta.kind === 'execute_step').map((t) => t.turn.prompt);
  expect(attempts).toHaveLength(2);
  expect(attempts[1]).toContain('The tests failed after your work on step 1');
  expect(attempts[1]).toContain('`node check.js` failed: exit code 3, no output');
});
