import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { readWork, tempRepo, tempRepoWithFakeScript } from '../helpers/repo.js';

let cleanup: (() => void) | undefined;
afterEach(() => cleanup?.());

function repoWithScript(script: unknown) {
  const repo = tempRepoWithFakeScript(script);
  cleanup = repo.cleanup;
  return repo;
}

const HANG_FIRST_REVIEW = {
  rules: [
    { when: { kind: 'review', resumed: false }, do: { hang: true } },
    { when: { kind: 'review' }, do: { verdict: 'APPROVED' } },
  ],
};

describe('the CLI in a repo', () => {
  it('a second agent-collab exits 2 naming the first one’s pid; Ctrl+C saves state (exit 130); --resume continues the same sessions', async () => {
    const repo = repoWithScript(HANG_FIRST_REVIEW);
    const first = runCli(['run', '--goal', 'g', '--auto', '--json'], { cwd: repo.dir, home: repo.home });
    await first.waitFor((e) => e.event === 'agent' && e.role === 'reviewer' && e.type === 'session');

    const hookLines = (): string[] =>
      readWork(repo.dir, 'debug.log')
        .split('\n')
        .filter((l) => / \[command-hook\] hooks on 127\.0\.0\.1:\d+ use /.test(l));
    await vi.waitFor(() => expect(hookLines()).toHaveLength(1)); // the first one's, written once it held the lock
    const second = await runCli(['run', '--goal', 'g', '--auto'], { cwd: repo.dir, home: repo.home }).done;
    expect(second.code).toBe(2);
    expect(second.stderr.trim()).toBe(
      `agent-collab: another agent-collab (pid ${first.child.pid}) is running here; wait for it to finish or stop it`,
    );
    expect(hookLines()).toHaveLength(1); // the refused one wrote nothing into the running one's debug.log

    first.child.kill('SIGINT');
    const interrupted = await first.done;
    expect(interrupted.code).toBe(130);
    expect(interrupted.stderr).toBe('');
    const saved = JSON.parse(readWork(repo.dir, 'state.json')) as {
      runId: string;
      phase: string;
      inflight: unknown;
      sessions: { reviewer: string; planner: string };
    };
    expect(saved.phase).toBe('REVIEW');
    expect(saved.inflight).toEqual({ kind: 'review' });
    // Interrupted during the plan review: the run's report says where it stood (nothing done), its path in a `report` event.
    const report = readWork(repo.dir, `runs/${saved.runId}/report.md`);
    expect(report).toContain('\nstatus: "FAILED"\n');
    expect(report).toContain('\nending: "interrupted"\n');
    const lines = interrupted.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.find((e) => e.event === 'report')).toMatchObject({
      status: 'FAILED',
      ending: 'interrupted',
      path: path.join(repo.dir, '.agent-collab', 'runs', saved.runId, 'report.md'),
    });
    expect(saved.sessions.reviewer).toMatch(/^fake-reviewer-/);
    expect(existsSync(path.join(repo.dir, '.agent-collab', 'agent-collab.pid'))).toBe(false);

    const resumed = await runCli(['run', '--resume', '--json'], { cwd: repo.dir, home: repo.home }).done;
    // manual mode: one round per invocation → the review runs (resumed session), then it waits for a go
    expect(resumed.code).toBe(3);
    const events = resumed.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.find((e) => e.event === 'agent' && e.type === 'session')).toMatchObject({
      role: 'reviewer',
      sessionId: saved.sessions.reviewer,
    });
    expect(events.find((e) => e.event === 'verdict')).toMatchObject({ verdict: 'APPROVED' });
    expect(events.find((e) => e.event === 'needs_human')).toMatchObject({ kind: 'go', phase: 'APPROVED' });
  });

  it('SIGTERM stops the agents, saves the state and exits 130', async () => {
    const repo = repoWithScript(HANG_FIRST_REVIEW);
    const run = runCli(['run', '--goal', 'g', '--auto', '--json'], { cwd: repo.dir, home: repo.home });
    await run.waitFor((e) => e.event === 'agent' && e.role === 'reviewer' && e.type === 'session');
    run.child.kill('SIGTERM');
    const r = await run.done;
    expect(r.code).toBe(130);
    expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!)).toMatchObject({
      event: 'done',
      phase: 'REVIEW',
      exit_code: 130,
    });
    expect(JSON.parse(readWork(repo.dir, 'state.json'))).toMatchObject({
      phase: 'REVIEW',
      inflight: { kind: 'review' },
    });
  });

  it('a stale lock left by a killed process is taken over', async () => {
    const repo = repoWithScript(HANG_FIRST_REVIEW);
    const first = runCli(['run', '--goal', 'g', '--auto', '--json'], { cwd: repo.dir, home: repo.home });
    await first.waitFor((e) => e.event === 'agent' && e.role === 'reviewer' && e.type === 'session');
    await new Promise((r) => setTimeout(r, 100)); // the session id reaches state.json
    first.child.kill('SIGKILL');
    await first.done;
    expect(existsSync(path.join(repo.dir, '.agent-collab', 'agent-collab.lock'))).toBe(true);
    const next = await runCli(['run', '--resume', '--auto', '--json'], { cwd: repo.dir, home: repo.home }).done;
    expect(next.stderr).toBe('');
    expect(next.code).toBe(3); // approved; execution waits for the person's go (no --auto-approve)
  });

  it('a corrupt state.json is moved aside, the user is told, and a new run starts', async () => {
    const repo = repoWithScript({ rules: [] });
    writeFileSync(path.join(repo.dir, '.agent-collab', 'state.json'), '{"schemaVersion": 1, "phase": "REVI');
    const r = await runCli(['run', '--goal', 'g', '--auto', '--auto-approve'], { cwd: repo.dir, home: repo.home }).done;
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^agent-collab: state\.json could not be read \(invalid JSON: .*\); it was moved to .*state\.json\.corrupt-\S+ and a new run starts\n$/,
    );
    const aside = readdirSync(path.join(repo.dir, '.agent-collab')).filter((f) => f.startsWith('state.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(path.join(repo.dir, '.agent-collab', aside[0]!), 'utf8')).toBe(
      '{"schemaVersion": 1, "phase": "REVI',
    );
  });

  it('bad config: one line naming file, key and what is expected; exit 2; nothing else touched', async () => {
    const repo = repoWithScript({ rules: [] });
    writeFileSync(path.join(repo.dir, '.agent-collab', 'config.toml'), '[workflow]\nmax_iterations = "five"\n');
    const r = await runCli(['run', '--goal', 'g'], { cwd: repo.dir, home: repo.home }).done;
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(path.join('.agent-collab', 'config.toml'));
    expect(r.stderr).toContain('workflow.max_iterations');
    expect(existsSync(path.join(repo.dir, '.agent-collab', 'state.json'))).toBe(false);
  });

  it('usage errors are one line with exit 2; --help and --version exit 0', async () => {
    const repo = repoWithScript({ rules: [] });
    const noGoal = await runCli(['run'], { cwd: repo.dir, home: repo.home }).done;
    expect(noGoal.code).toBe(2);
    expect(noGoal.stderr).toMatch(/^agent-collab: --goal is required to start a run/);
    const badFlag = await runCli(['run', '--bogus'], { cwd: repo.dir, home: repo.home }).done;
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toMatch(/^agent-collab: Unknown option '--bogus'.*agent-collab --help/);
    const both = await runCli(['run', '--resume', '--fresh'], { cwd: repo.dir, home: repo.home }).done;
    expect(both.code).toBe(2);
    const notRepo = await runCli(['run', '--goal', 'g'], { cwd: repo.home, home: repo.home }).done;
    expect(notRepo.code).toBe(2);
    expect(notRepo.stderr).toMatch(/is not inside a git repository; cd into your project or run `git init` first/);
    const help = await runCli(['--help'], { cwd: repo.dir, home: repo.home }).done;
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage:[\s\S]*Exit codes:/);
    const version = await runCli(['--version'], { cwd: repo.dir, home: repo.home }).done;
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('agent-collab demo runs the whole workflow without a TTY and exits 0', async () => {
    const repo = tempRepo();
    cleanup = repo.cleanup;
    const r = await runCli(['demo'], { cwd: repo.home, home: repo.home }).done;
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('[verdict] CHANGES_REQUIRED');
    expect(r.stdout).toContain('[verdict] APPROVED');
    expect(r.stdout).toContain('== DONE');
    expect(r.stdout).toMatch(/\[Step 1\] /);
  });
});
