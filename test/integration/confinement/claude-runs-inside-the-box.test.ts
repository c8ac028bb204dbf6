// The claude adapter runs the claude process itself inside agent-collab's bubblewrap box (real bwrap, a stand-in
// claude), also when agent-collab runs as root: the working tree is writable; .agent-collab, .git and $HOME are
// not; claude's session files persist while its settings, its auto-memory dir and other projects' dirs stay read-only
// and what it creates elsewhere in its config dir vanishes; the git dirs hold the files claude's nested sandbox mounts over without them reaching the disk; and
// a remount or a write through /proc/<pid>/root changes nothing outside. Checked on disk and in git.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClaudeAgent } from '../../../src/adapters/claude/claude-agent.js';
import { claudeProjectKey } from '../../../src/adapters/claude/claude-box.js';
import { agentConfinement } from '../../../src/adapters/confinement/index.js';
import type { AgentEvent, AgentTurn } from '../../../src/core/types.js';
import { tempRepo } from '../../helpers/repo.js';
import { gitSnapshot, mkdirs } from './helpers.js';

let cleanup: (() => void) | undefined;
const savedHome = process.env.HOME;
afterEach(() => {
  cleanup?.();
  process.env.HOME = savedHome;
});

/**
 * A stand-in claude that tries each write (and, as root, a remount and writes through every /proc/<pid>/root), then
 * answers with what happened as a claude stream-json result.
 */
function standInClaude(dir: string, escaped: string): string {
  const file = path.join(dir, 'claude');
  writeFileSync(
    file,
    `#!${process.execPath}
const fs = require('node:fs');
const { spawnSync } = require('node:child_process');
const home = process.env.HOME;
// claude's session dir for the cwd (claude-box.ts claudeProjectKey; the test paths are short)
const key = process.cwd().replace(/[^a-zA-Z0-9]/g, '-');
const tries = {
  repo: 'made.txt',
  plan: '.agent-collab/plan.md',
  gitHead: '.git/HEAD',
  gitConfigLock: '.git/config.lock',
  home: home + '/.bashrc',
  settings: home + '/.claude/settings.json',
  newSettings: home + '/.claude/settings.local.json',
  session: home + '/.claude/projects/' + key + '/session.jsonl',
  memory: home + '/.claude/projects/' + key + '/memory/MEMORY.md',
  otherSession: home + '/.claude/projects/p/session.jsonl',
  otherMemory: home + '/.claude/projects/p/memory/MEMORY.md',
  newProject: home + '/.claude/projects/new/memory/MEMORY.md',
  snapshot: home + '/.claude/shell-snapshots/snapshot.sh',
};
const result = {};
for (const [k, f] of Object.entries(tries)) {
  try { fs.mkdirSync(require('node:path').dirname(f), { recursive: true }); } catch {}
  try { fs.writeFileSync(f, 'written\\n', { flag: k.endsWith('ession') ? 'a' : 'w' }); result[k] = 'ok'; } catch (e) { result[k] = e.code; }
}
result.mountPoints = ['config.lock', 'config.worktree'].filter((n) => fs.existsSync('.git/' + n)).join(',');
result.remount = spawnSync('mount', ['-o', 'remount,rw', '/'], { stdio: 'ignore' }).status === 0 ? 'ok' : 'failed';
let viaProc = 'failed';
for (const pid of fs.readdirSync('/proc').filter((p) => /^[0-9]+$/.test(p))) {
  try { fs.writeFileSync('/proc/' + pid + '/root' + ${JSON.stringify(escaped)}, 'x'); viaProc = 'ok'; } catch {}
}
result.viaProc = viaProc;
try { fs.writeFileSync(${JSON.stringify(escaped)}, 'x'); result.escaped = 'ok'; } catch (e) { result.escaped = e.code; }
const line = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
line({ type: 'system', subtype: 'init', session_id: 's-1' });
line({ type: 'result', subtype: 'success', is_error: false, result: JSON.stringify(result), session_id: 's-1' });
`,
  );
  chmodSync(file, 0o755);
  return file;
}

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

function setup() {
  const repo = tempRepo();
  cleanup = repo.cleanup;
  const workdir = path.join(repo.dir, '.agent-collab');
  const config = path.join(repo.home, '.claude');
  mkdirs(
    workdir,
    path.join(repo.home, 'bin'),
    path.join(config, 'projects', 'p', 'memory'),
    path.join(config, 'shell-snapshots'),
  );
  writeFileSync(path.join(workdir, 'plan.md'), 'PLAN\n');
  writeFileSync(path.join(config, 'settings.json'), '{}\n');
  const sessions = path.join(config, 'projects', claudeProjectKey(realpathSync(repo.dir)));
  mkdirs(sessions);
  writeFileSync(path.join(sessions, 'session.jsonl'), 'earlier\n');
  writeFileSync(path.join(config, 'projects', 'p', 'session.jsonl'), 'other\n');
  process.env.HOME = repo.home;
  const escaped = path.join(repo.home, 'escaped');
  const agent = createClaudeAgent({
    name: 'claude-planner',
    binary: standInClaude(path.join(repo.home, 'bin'), escaped),
    debug: () => undefined,
    debugSource: 'planner/claude',
    confinement: agentConfinement(workdir),
  });
  const turn = (access: AgentTurn['access']): AgentTurn => ({
    prompt: 'go',
    cwd: repo.dir,
    access,
    meta: { role: 'planner', kind: 'execute_step', iteration: 1, step: 1 },
  });
  return { repo, workdir, config, sessions, agent, turn, escaped };
}

function answer(events: AgentEvent[]): Record<string, string> {
  const done = events.find((e) => e.type === 'done');
  return JSON.parse(done && done.type === 'done' ? done.text : '{}') as Record<string, string>;
}

describe('claude in the box', () => {
  it('write turn: only the working tree and its session files change; settings, memory, other projects, git, $HOME and the rest hold, also for root', async () => {
    const { repo, workdir, config, sessions, agent, turn, escaped } = setup();
    const before = gitSnapshot(repo.dir);
    const gitEntries = readdirSync(path.join(repo.dir, '.git')).sort();
    const events = await collect(agent.start(turn('workspace-write')));
    const { gitConfigLock, newProject, ...tries } = answer(events);
    expect(gitConfigLock).not.toBe('ok'); // the placeholder is a read-only /dev/null
    expect(newProject).not.toBe('ok'); // no project dir can be made (EROFS), so there is none to write in
    expect(tries).toEqual({
      repo: 'ok',
      plan: 'EROFS',
      gitHead: 'EROFS',
      home: 'EROFS',
      settings: 'EROFS',
      newSettings: 'ok',
      session: 'ok',
      memory: 'EROFS',
      otherSession: 'EROFS',
      otherMemory: 'EROFS',
      snapshot: 'ok',
      mountPoints: 'config.lock,config.worktree',
      remount: 'failed',
      viaProc: 'failed',
      escaped: 'EROFS',
    });
    expect(readFileSync(path.join(repo.dir, 'made.txt'), 'utf8')).toBe('written\n');
    expect(readFileSync(path.join(workdir, 'plan.md'), 'utf8')).toBe('PLAN\n');
    expect(gitSnapshot(repo.dir)).toBe(before);
    // the mount points claude's sandbox needs were only in the box
    expect(readdirSync(path.join(repo.dir, '.git')).sort()).toEqual(gitEntries);
    expect(existsSync(path.join(repo.home, '.bashrc'))).toBe(false);
    expect(existsSync(escaped)).toBe(false);
    expect(readFileSync(path.join(config, 'settings.json'), 'utf8')).toBe('{}\n');
    expect(existsSync(path.join(config, 'settings.local.json'))).toBe(false);
    expect(readdirSync(path.join(config, 'shell-snapshots'))).toEqual([]);
    expect(readFileSync(path.join(sessions, 'session.jsonl'), 'utf8')).toBe('earlier\nwritten\n');
    expect(readdirSync(path.join(sessions, 'memory'))).toEqual([]);
    expect(readFileSync(path.join(config, 'projects', 'p', 'session.jsonl'), 'utf8')).toBe('other\n');
    expect(readdirSync(path.join(config, 'projects', 'p', 'memory'))).toEqual([]);
    expect(existsSync(path.join(config, 'projects', 'new'))).toBe(false);
  });

  it('read-only turn: boxed too, with the working tree read-only; the session still persists', async () => {
    const { repo, sessions, agent, turn } = setup();
    const events = await collect(agent.start(turn('read-only')));
    expect(answer(events)).toMatchObject({
      repo: 'EROFS',
      plan: 'EROFS',
      settings: 'EROFS',
      session: 'ok',
      memory: 'EROFS',
    });
    expect(existsSync(path.join(repo.dir, 'made.txt'))).toBe(false);
    expect(readFileSync(path.join(sessions, 'session.jsonl'), 'utf8')).toBe('earlier\nwritten\n');
    expect(readdirSync(path.join(sessions, 'memory'))).toEqual([]);
  });

  it('a linked worktree: claude`s mount points in its git dir exist in the box only', async () => {
    const { repo, turn } = setup();
    const wt = `${repo.dir}-wt`;
    execFileSync('git', ['worktree', 'add', '-q', '-b', 'feature', wt], { cwd: repo.dir, stdio: 'pipe' });
    const gitDir = path.join(repo.dir, '.git', 'worktrees', path.basename(wt));
    const entries = readdirSync(gitDir).sort();
    try {
      mkdirs(path.join(wt, '.agent-collab'));
      const agent = createClaudeAgent({
        name: 'claude-planner',
        binary: path.join(repo.home, 'bin', 'claude'),
        debug: () => undefined,
        debugSource: 'planner/claude',
        confinement: agentConfinement(path.join(wt, '.agent-collab')),
      });
      standInClaude(path.join(repo.home, 'bin'), path.join(repo.home, 'escaped'));
      const events = await collect(agent.start({ ...turn('workspace-write'), cwd: wt }));
      // `.git` is a file in a linked worktree: writing under it fails on its own (ENOTDIR)
      expect(answer(events)).toMatchObject({ repo: 'ok', plan: 'EROFS', remount: 'failed', viaProc: 'failed' });
      expect(readdirSync(gitDir).sort()).toEqual(entries);
    } finally {
      execFileSync('git', ['worktree', 'remove', '--force', wt], { cwd: repo.dir, stdio: 'pipe' });
    }
  });
});
