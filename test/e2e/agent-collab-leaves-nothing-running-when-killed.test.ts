/**
 * agent-collab (the built CLI) is killed with SIGKILL during a real CLI turn: while the real executor CLI (claude:
 * unconfined process with its own sandbox for Bash; codex: inside agent-collab's box) runs a command that keeps
 * writing a file every 100 ms and sleeps: nothing of the turn keeps running, the file stops growing, and `--resume` finishes the step
 * with a commit holding exactly what was written before agent-collab died. Run `npm run build` first.
 * The kills during the step's tests and its commit involve no CLI: they are proven once, with fake agents, in
 * test/integration/nothing-outlives-a-killed-agent-collab.test.ts (with the resumed commit), not here again.
 */
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe } from 'vitest';
import { gitSubjects, plan, processesOf, readWork } from './agent-collab-run.js';
import { it } from './agent-collab-fixture.js';
import { describeRun } from './harness.js';
import { reply } from './llm-server.js';
import { eventually, grows, killAll, processesTagged, sizeOf } from '../integration/orphans-helpers.js';

const WRITER = '(while :; do echo x >> grow.txt; sleep 0.1; done) & sleep 30';

describe('a killed agent-collab leaves nothing of a real CLI turn running', () => {
  it.for([
    { executor: 'claude', reviewer: 'codex' },
    { executor: 'codex', reviewer: 'claude' },
  ] as const)(
    'SIGKILL during a $executor turn: the CLI, its command and the writer end; the resumed step commits only what was written before',
    async ({ executor, reviewer }, { ac, expect, onTestFinished }) => {
      const { server, repo, env } = ac;
      ac.config({ planner: executor, reviewer, testCommand: 'true' });
      const writer = executor === 'claude' ? reply.tool('Bash', { command: WRITER }) : reply.execCommand(WRITER);
      const answers = [reply.text(plan('PLAN-V1', ['Write grow.txt'])), writer, reply.text('Done.\nSummary: grow')];
      const approve = reply.text('[APPROVED]');
      if (executor === 'claude') {
        server.anthropic.push(...answers);
        server.openai.push(approve);
      } else {
        server.openai.push(...answers);
        server.anthropic.push(approve);
      }
      const grow = path.join(repo, 'grow.txt');

      const first = ac.start(['run', '--goal', 'grow', '--auto', '--auto-approve'], 120_000);
      expect(await eventually(() => sizeOf(grow) > 0, 90_000), 'the writer never started').toBe(true);
      const tag = readWork(repo, 'owner-tag').trim();
      onTestFinished(() => killAll(processesTagged(tag))); // only if the test failed: nothing should be left
      process.kill(first.pid, 'SIGKILL'); // agent-collab alone, as the OOM killer would
      expect((await first.done).signal).toBe('SIGKILL');

      expect(await eventually(() => processesTagged(tag).length === 0)).toBe(true);
      expect(await eventually(() => processesOf(env.root, env.home).length === 0)).toBe(true);
      expect(await grows(grow)).toBe(false);
      const written = readFileSync(grow, 'utf8');

      const second = await ac.run(['run', '--resume', '--auto'], 90_000);
      expect(second.code, describeRun(second)).toBe(0);
      expect(gitSubjects(repo)[0]).toBe('[Step 1] grow');
      expect(execFileSync('git', ['show', 'HEAD:grow.txt'], { cwd: repo, encoding: 'utf8' })).toBe(written);
    },
  );
});
