/**
 * Issue 17, the hole left when agent-collab runs as root (it does here and in CI) with the real claude as executor:
 * claude's own sandbox kept root's capabilities, so a command could `mount -o remount,rw /` and then write anywhere.
 * claude now runs inside agent-collab's box with its sandbox nested. The scripted executor writes a script in the
 * repo and runs it: it tries the remount, then writes outside the repo, into $HOME, claude's settings, `.git` and
 * `.agent-collab` — directly and through `/proc/<pid>/root/…` of every process it can see (claude's among them).
 * Proven by effects: none of it is on disk, git holds only agent-collab's `[Step 1]` commit with the step's own
 * files, the session resumed across turns, and the run reports the refused command. Run `npm run build` first.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe } from 'vitest';
import { e2eInstall, itWith } from './agent-collab-fixture.js';
import { gitSubjects } from './agent-collab-run.js';
import { describeRun } from './harness.js';
import { reply } from './llm-server.js';
import {
  claudeTool,
  commitFiles,
  fileStates,
  git,
  gitSnapshot,
  refusalReported,
  shellAttempt,
  withBranchAt,
} from './tamper.js';

const PLAN = '# Plan\n\n## Steps\n1. [ ] Add legit.txt\n';
const BASHRC = "# the test user's own .bashrc\nexport KEEP=1\n";
const SETTINGS = '{}\n';

/** Outside any temp dir (both the box and claude's sandbox keep temp dirs writable). */
const WORK_DIR = e2eInstall.ok ? path.join(path.dirname(path.dirname(e2eInstall.binDir)), 'work') : undefined;
const it = itWith({ parentDir: WORK_DIR });

/** The script the executor writes and runs; it exits with the number of writes that failed. */
const ESCAPE_SH = [
  '#!/bin/bash',
  'failed=0',
  'out="$(dirname "$PWD")/outside-escape.txt"',
  'try() { "$@" || failed=$((failed+1)); }',
  'try mount -o remount,rw /',
  'try sh -c "echo escaped > \\"$out\\""',
  'try sh -c "echo escaped >> \\"$HOME/.bashrc\\""',
  'try sh -c "echo escaped > \\"$HOME/.claude/settings.json\\""',
  'try sh -c "echo escaped > .git/escaped"',
  'try sh -c "echo escaped > .agent-collab/escaped"',
  'for p in /proc/[0-9]*; do',
  '  try sh -c "echo escaped > $p/root$out"',
  '  try sh -c "echo escaped >> $p/root$HOME/.bashrc"',
  '  try sh -c "echo escaped > $p/root$HOME/.claude/settings.json"',
  '  try sh -c "echo escaped > $p/root$PWD/.git/escaped"',
  '  try sh -c "echo escaped > $p/root$PWD/.agent-collab/escaped"',
  'done',
  'echo "failed: $failed"',
  'exit $failed',
  '',
].join('\n');

describe('claude as executor while agent-collab runs as root', () => {
  it('a script that remounts / and writes through /proc/<pid>/root changes nothing outside the working tree', async ({
    ac,
    expect,
  }) => {
    const { server, repo, env } = ac;
    ac.config({ planner: 'claude', reviewer: 'codex' });
    writeFileSync(path.join(env.home, '.bashrc'), BASHRC);
    const settings = path.join(env.home, '.claude', 'settings.json');
    mkdirSync(path.dirname(settings), { recursive: true });
    writeFileSync(settings, SETTINGS);
    const homeFiles = [path.join(env.home, '.bashrc'), settings];
    const homeBefore = fileStates(homeFiles);
    const rootBefore = readdirSync(env.root).sort();
    const before = gitSnapshot(repo);

    const writeScript = claudeTool('write the script', 'Write', {
      file_path: path.join(repo, 'escape.sh'),
      content: ESCAPE_SH,
    });
    const runScript = shellAttempt('claude', 'run the script', 'bash ./escape.sh');
    const addLegit = claudeTool('add legit.txt', 'Write', {
      file_path: path.join(repo, 'legit.txt'),
      content: 'legit\n',
    });
    server.anthropic.push(
      reply.text(PLAN),
      writeScript.reply,
      runScript.reply,
      addLegit.reply,
      reply.text('Added legit.txt.\nSummary: add legit.txt'),
    );
    server.openai.push(reply.text('[APPROVED]\n\nFine.'));

    const r = await ac.run(['run', '--goal', 'add legit.txt', '--auto', '--auto-approve'], 150_000);
    const report = describeRun(r);
    expect(r.code, report).toBe(0);

    // nothing next to the repo, $HOME and claude's settings unchanged
    expect.soft(readdirSync(env.root).sort(), report).toEqual(rootBefore);
    expect.soft(fileStates(homeFiles)).toEqual(homeBefore);
    expect.soft(existsSync(path.join(repo, '.git', 'escaped'))).toBe(false);
    expect.soft(existsSync(path.join(repo, '.agent-collab', 'escaped'))).toBe(false);
    // git: only agent-collab's own step commit with the step's files
    const after = gitSnapshot(repo);
    expect.soft(after, report).toEqual(withBranchAt(before, after.head));
    expect.soft(gitSubjects(repo)).toEqual(['[Step 1] add legit.txt', 'initial']);
    expect.soft(commitFiles(repo, 'HEAD')).toEqual(['escape.sh', 'legit.txt']);
    expect.soft(git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    // the script's writes were all refused, and the run says so
    expect.soft(refusalReported(r.lines, runScript), report).toMatch(/failed \(exit [1-9]/);
    expect
      .soft(
        r.lines.some((l) => l.id === 'agent-collab-confinement' && /escape\.sh/.test(String(l.output))),
        report,
      )
      .toBe(true);
    // the executor's turn resumed the planner's session (claude's session files persist out of the box): its last
    // request carries the plan as the model's own earlier answer
    const last = server.anthropic.requests.at(-1)?.body as { messages?: { role: string; content: unknown }[] };
    const earlier = (last.messages ?? []).filter((m) => m.role === 'assistant').map((m) => JSON.stringify(m.content));
    expect
      .soft(
        earlier.some((c) => c.includes('# Plan')),
        report,
      )
      .toBe(true);
    expect.soft(readFileSync(path.join(repo, 'legit.txt'), 'utf8')).toBe('legit\n');
  }, 180_000);
});
