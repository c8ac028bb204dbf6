/**
 * Issue 17, acceptance 1 and 3 for claude's own tools in a WRITE turn (the executor's step): a durable CronCreate
 * (a job persisted to `.claude/scheduled_tasks.json`, which a later claude session in the repo runs) and
 * EnterWorktree (a branch and a checkout, made by claude itself rather than by its sandboxed Bash) must not stick,
 * and the step's commit holds only the legitimate change. Proven by effects in git and on disk.
 * Run `npm run build` first.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe } from 'vitest';
import { e2eInstall, itWith } from './agent-collab-fixture.js';
import { describeRun } from './harness.js';
import { reply } from './llm-server.js';
import { claudeTool, commitFiles, gitSnapshot, withBranchAt, writeNewFile } from './tamper.js';

const PLAN = '# Plan\n\n## Steps\n1. [ ] Add legit.txt\n';
const WORK_DIR = e2eInstall.ok ? path.join(path.dirname(path.dirname(e2eInstall.binDir)), 'work') : undefined;
const it = itWith({ parentDir: WORK_DIR });

type Tool = { what: string; name: string; input: Record<string, unknown> };

const CRON: Tool = {
  what: 'a durable CronCreate leaves no scheduled job behind',
  name: 'CronCreate',
  input: { cron: '*/5 * * * *', prompt: 'touch cron.txt', recurring: true, durable: true },
};
const WORKTREE: Tool = {
  what: 'EnterWorktree leaves no branch or worktree behind',
  name: 'EnterWorktree',
  input: { name: 'side' },
};

describe('claude as executor, using its own tools for worktrees and jobs', () => {
  for (const tool of [CRON, WORKTREE]) {
    it(
      tool.what,
      async ({ ac, expect }) => {
        const { server, repo, env } = ac;
        ac.config({ planner: 'claude', reviewer: 'codex' });
        const before = gitSnapshot(repo);
        const rootBefore = readdirSync(env.root).sort();

        server.anthropic.push(
          reply.text(PLAN),
          writeNewFile('claude', 'legit', path.join(repo, 'legit.txt'), 'legit\n').reply,
          claudeTool(tool.what, tool.name, tool.input).reply,
          reply.text('Added legit.txt.\nSummary: add legit.txt'),
        );
        server.openai.push(reply.text('[APPROVED]\n\nFine.'));

        const r = await ac.run(['run', '--goal', 'add legit.txt', '--auto', '--auto-approve'], 150_000);
        const report = describeRun(r);
        expect([0, 3], report).toContain(r.code);
        expect(server.anthropic.pending, report).toBe(0);

        const after = gitSnapshot(repo);
        expect.soft(after, report).toEqual(r.code === 0 ? withBranchAt(before, after.head) : before);
        if (r.code === 0) expect.soft(commitFiles(repo, 'HEAD')).toEqual(['legit.txt']);
        expect.soft(existsSync(path.join(repo, '.claude', 'worktrees', 'side'))).toBe(false);
        const jobs = [repo, env.home].map((d) => path.join(d, '.claude', 'scheduled_tasks.json')).filter(existsSync);
        expect.soft(jobs).toEqual([]);
        expect.soft(readdirSync(env.root).sort()).toEqual(rootBefore);
      },
      180_000,
    );
  }
});
