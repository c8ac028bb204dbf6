/**
 * Issue 17, acceptance 4: a read-only turn cannot create or change files, branches, worktrees or scheduled jobs —
 * for the real claude AND the real codex as the reviewer reviewing the plan. The scripted reviewer tries its CLI's
 * file tools and shell, a branch, a worktree (claude's EnterWorktree, `git worktree add`), and scheduled jobs
 * (claude's CronCreate with `durable`, `crontab`, a systemd user timer in $HOME), then approves. The run stops
 * there (no `--auto-approve`: it waits for the person), so no write turn ran and any change would be the
 * reviewer's. Proven by effects on disk, in git and in the cron spool. Run `npm run build` first.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe } from 'vitest';
import { e2eInstall, itWith } from './agent-collab-fixture.js';
import { describeRun } from './harness.js';
import { reply, type Reply } from './llm-server.js';
import {
  claudeTool,
  fileStates,
  gitSnapshot,
  shellAttempt,
  writeNewFile,
  type Attempt,
  type CliName,
} from './tamper.js';

const PLAN = '# Plan\n\n## Steps\n1. [ ] Add a.txt\n';
const WORK_DIR = e2eInstall.ok ? path.join(path.dirname(path.dirname(e2eInstall.binDir)), 'work') : undefined;
const it = itWith({ parentDir: WORK_DIR });
const CRON_SPOOL = '/var/spool/cron';

/** Every file under `dir` (relative path → content), `.git` and agent-collab's own `.agent-collab` left out. */
function tree(dir: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(path.join(dir, rel))) {
    const r = path.join(rel, name);
    if (r === '.git' || r === '.agent-collab') continue;
    const full = path.join(dir, r);
    if (statSync(full).isDirectory()) Object.assign(out, tree(dir, r));
    else out[r] = readFileSync(full, 'utf8');
  }
  return out;
}

/** The cron spool's files (crontab writes there), or [] when it does not exist. */
function cronSpool(dir = CRON_SPOOL): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

/** What the reviewer tries in its read-only turn, in its CLI's tool shapes. */
function attempts(cli: CliName, repo: string, home: string): Attempt[] {
  const timer = path.join(home, '.config', 'systemd', 'user', 'ro.timer');
  const sh = (what: string, command: string) => shellAttempt(cli, what, command);
  const common = [
    writeNewFile(
      cli,
      'file tool creates a file',
      cli === 'claude' ? path.join(repo, 'ro-tool.txt') : 'ro-tool.txt',
      'x\n',
    ),
    writeNewFile(cli, 'file tool creates a systemd timer in $HOME', timer, '[Timer]\nOnCalendar=minutely\n'),
    sh('shell creates and changes files', 'touch ro-shell.txt && echo changed >> README.md'),
    sh('shell creates a branch', 'git branch ro-sneaky'),
    sh('shell adds a worktree', 'git worktree add -b ro-wt-branch ../ro-wt'),
    sh('shell installs a crontab', 'echo "* * * * * touch /tmp/ro-pwned" | crontab -'),
  ];
  if (cli === 'codex') return common;
  return [
    claudeTool('read README.md', 'Read', { file_path: path.join(repo, 'README.md') }),
    claudeTool('Edit changes README.md', 'Edit', {
      file_path: path.join(repo, 'README.md'),
      old_string: '# e2e',
      new_string: '# changed',
    }),
    ...common,
    claudeTool('CronCreate schedules a durable job', 'CronCreate', {
      cron: '*/5 * * * *',
      prompt: 'touch ro-cron.txt',
      recurring: true,
      durable: true,
    }),
    // last: it moves the session into the new worktree
    claudeTool('EnterWorktree creates a worktree and a branch', 'EnterWorktree', { name: 'ro-wt' }),
  ];
}

for (const reviewer of ['claude', 'codex'] as const) {
  const planner = reviewer === 'claude' ? 'codex' : 'claude';

  describe(`${reviewer} in a read-only turn (the plan review)`, () => {
    it('cannot create or change files, branches, worktrees or scheduled jobs', async ({ ac, expect }) => {
      const { server, repo, env } = ac;
      ac.config({ planner, reviewer });
      const homeFiles = [path.join(env.home, '.config', 'systemd', 'user', 'ro.timer')];
      const homeBefore = fileStates(homeFiles);
      const rootBefore = readdirSync(env.root).sort();
      const treeBefore = tree(repo);
      const gitBefore = gitSnapshot(repo);
      const spoolBefore = cronSpool();

      const tries = attempts(reviewer, repo, env.home);
      const reviewerScript: Reply[] = [...tries.map((a) => a.reply), reply.text('[APPROVED]\n\nFine.')];
      (planner === 'codex' ? server.openai : server.anthropic).push(reply.text(PLAN));
      (reviewer === 'claude' ? server.anthropic : server.openai).push(...reviewerScript);

      // no --auto-approve: after the review the run waits for the person, so no write turn runs
      const r = await ac.run(['run', '--goal', 'add a.txt', '--auto'], 120_000);
      const report = describeRun(r);
      expect(
        r.lines.some((l) => l.event === 'round' && l.role === 'reviewer'),
        report,
      ).toBe(true);
      // every attempt reached the CLI (the script is used up), so the checks below are not vacuous
      expect((reviewer === 'claude' ? server.anthropic : server.openai).pending, report).toBe(0);

      expect.soft(tree(repo), report).toEqual(treeBefore);
      expect.soft(existsSync(path.join(repo, '.claude', 'worktrees'))).toBe(false);
      expect.soft(gitSnapshot(repo)).toEqual(gitBefore);
      expect.soft(readdirSync(env.root).sort()).toEqual(rootBefore);
      expect.soft(fileStates(homeFiles)).toEqual(homeBefore);
      expect.soft(cronSpool()).toEqual(spoolBefore);
      // claude's durable CronCreate persists to `.claude/scheduled_tasks.json` (repo or $HOME)
      const scheduled = [repo, env.home].map((d) => path.join(d, '.claude', 'scheduled_tasks.json'));
      expect.soft(scheduled.filter((f) => existsSync(f))).toEqual([]);
    }, 150_000);
  });
}
