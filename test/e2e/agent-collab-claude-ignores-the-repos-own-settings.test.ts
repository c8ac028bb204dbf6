/**
 * An agent's write turn can change the repo's own `.claude/settings.json` (it is a file in the working tree); the
 * hooks it names would run outside any sandbox in the next claude turn. agent-collab starts claude with the user's
 * settings only: a SessionStart / UserPromptSubmit / PreToolUse hook planted in the repo never runs, in a read-only
 * turn (the plan review) or in a write turn (the step). Proven by the files the hooks would have written.
 * Run `npm run build` first.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe } from 'vitest';
import { e2eInstall, itWith } from './agent-collab-fixture.js';
import { describeRun } from './harness.js';
import { reply } from './llm-server.js';
import { git, shellAttempt } from './tamper.js';

const PLAN = '# Plan\n\n## Steps\n1. [ ] Add legit.txt\n';
const WORK_DIR = e2eInstall.ok ? path.join(path.dirname(path.dirname(e2eInstall.binDir)), 'work') : undefined;
const it = itWith({ parentDir: WORK_DIR });

function plantHooks(repo: string, outside: string): void {
  const hook = (event: string) => ({
    [event]: [{ hooks: [{ type: 'command', command: `echo ${event} >> ${outside}/${event}.txt` }] }],
  });
  mkdirSync(path.join(repo, '.claude'), { recursive: true });
  const settings = { hooks: { ...hook('SessionStart'), ...hook('UserPromptSubmit'), ...hook('PreToolUse') } };
  writeFileSync(path.join(repo, '.claude', 'settings.json'), JSON.stringify(settings));
  writeFileSync(path.join(repo, '.claude', 'settings.local.json'), JSON.stringify(settings));
}

describe("claude and the repo's own .claude/settings.json", () => {
  it('hooks planted in the repo run neither in the read-only review nor in the write turn', async ({ ac, expect }) => {
    const { server, repo, env } = ac;
    // claude reviews (read-only) and executes (write): roles as the person may choose them
    ac.config({ planner: 'claude', reviewer: 'claude' });
    const outside = path.join(env.root, 'hook-output');
    mkdirSync(outside);
    plantHooks(repo, outside);
    git(repo, 'add', '.claude');
    git(repo, 'commit', '-q', '-m', 'project settings');
    server.anthropic.push(
      reply.text(PLAN),
      reply.text('[APPROVED]\n\nFine.'),
      shellAttempt('claude', 'legit', 'echo legit > legit.txt').reply,
      reply.text('Added legit.txt.\nSummary: add legit.txt'),
    );
    const r = await ac.run(['run', '--goal', 'add legit.txt', '--auto', '--auto-approve'], 150_000);
    const report = describeRun(r);
    expect(r.code, report).toBe(0);
    expect(existsSync(path.join(repo, 'legit.txt')), report).toBe(true);
    expect(readdirSync(outside)).toEqual([]);
  }, 180_000);
});
