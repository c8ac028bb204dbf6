/**
 * agent-collab (the built CLI, headless) with the real Gemini CLI in every role, against the scripted server's Gemini
 * API: gemini plans (a read-only turn: its write tool is refused), reviews, and executes the step inside
 * agent-collab's box (its own sandbox needs docker/podman here). The step's file is committed; a command the policy
 * denies did not run; a write outside the repo did not happen. Run `npm run build` first (`npm test` does).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe } from 'vitest';
import { agentCollabConfigToml, events, gitSubjects } from './agent-collab-run.js';
import { e2eInstall, itWith } from './agent-collab-fixture.js';
import { describeRun } from './harness.js';
import { reply } from './llm-server.js';

// gemini skips a settings file below a world-writable dir (/tmp): the env lives in the e2e cache's work dir.
const WORK_DIR = e2eInstall.ok ? path.join(path.dirname(path.dirname(e2eInstall.binDir)), 'work') : undefined;
const it = itWith({ parentDir: WORK_DIR });
const MODEL = 'gemini-2.5-flash';

describe('agent-collab on the real gemini CLI', () => {
  it('gemini plans read-only, reviews and executes a committed step; denied and outside writes do not happen', async ({
    ac,
    expect,
  }) => {
    if (!e2eInstall.ok) return;
    const { server, repo, env } = ac;
    const toml = agentCollabConfigToml({ claude: e2eInstall.claude, codex: e2eInstall.codex })
      .replace('planner = "codex"', 'planner = "gemini"')
      .replace('reviewer = "claude"', `reviewer = "gemini"\nplanner_model = "${MODEL}"\nreviewer_model = "${MODEL}"`);
    writeFileSync(
      path.join(repo, '.agent-collab', 'config.toml'),
      `${toml}\n[agents.gemini]\ncommand = ${JSON.stringify(e2eInstall.gemini)}\n`,
    );
    const data = path.join(repo, 'data');
    mkdirSync(data, { mode: 0o755 });
    const outside = path.join(env.root, 'outside.txt');
    const outsideByShell = path.join(env.root, 'outside-by-shell.txt');
    const inPlanning = path.join(repo, 'planned.txt');
    // gemini's side requests (none measured with an explicit model) must not eat the scripted turns.
    server.gemini.handle((req) => (req.stream ? undefined : reply.text('{}')));
    server.gemini.push(
      // planner (read-only turn): its write tool is not offered, the call fails
      reply.tool('write_file', { file_path: inPlanning, content: 'no\n' }),
      reply.text('# Plan\n\n## Steps\n1. [ ] Create a.txt\n'),
      // reviewer
      reply.text('[APPROVED]\n\nFine.'),
      // executor (write turn, boxed)
      reply.tool('write_file', { file_path: path.join(repo, 'a.txt'), content: 'A\n' }),
      reply.tool('run_shell_command', { command: `chmod -R 777 ${data} && touch denied-ran.txt` }),
      reply.tool('write_file', { file_path: outside, content: 'escaped\n' }),
      // the policy allows this one (measured: "no rule matched"); only the box stops it
      reply.tool('run_shell_command', { command: `printf escaped > ${outsideByShell}; printf ok > shell-ran.txt` }),
      reply.text('Created a.txt.\nSummary: add a.txt'),
    );

    const r = await ac.run(['run', '--goal', 'one file', '--auto', '--auto-approve'], 120_000);
    expect(r.code, describeRun(r)).toBe(0);

    expect(gitSubjects(repo)).toEqual(['[Step 1] add a.txt', 'initial']);
    const committed = execFileSync('git', ['show', '--name-only', '--format=', 'HEAD'], {
      cwd: repo,
      encoding: 'utf8',
    });
    expect(committed.trim().split('\n').sort()).toEqual(['a.txt', 'shell-ran.txt']);
    expect(existsSync(inPlanning)).toBe(false); // the read-only turn wrote nothing
    expect(existsSync(path.join(repo, 'denied-ran.txt'))).toBe(false); // the denied command did not run
    expect(statSync(data).mode & 0o777).toBe(0o755);
    expect(existsSync(outside)).toBe(false); // no write outside the repo, by gemini's tool
    expect(existsSync(path.join(repo, 'shell-ran.txt'))).toBe(true); // the allowed command ran, in the box,
    expect(existsSync(outsideByShell)).toBe(false); // where it could not write outside the repo
    expect(events(r, 'command')).toEqual([
      expect.objectContaining({ role: 'planner', decision: 'deny', rule: 'chmod 777' }),
    ]);
    // The executor resumed the planner's gemini session (`--resume <id>`): one session id over both planner turns.
    const plannerSessions = events(r, 'agent')
      .filter((e) => e.role === 'planner' && e.type === 'session')
      .map((e) => e.sessionId);
    expect(plannerSessions.length).toBeGreaterThanOrEqual(2);
    expect(new Set(plannerSessions).size).toBe(1);
    expect(server.gemini.pending).toBe(0);
  });
});
