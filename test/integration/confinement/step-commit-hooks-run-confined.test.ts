// Issue 17, agent-collab's own step commit: the repo's tracked hook (husky style: core.hooksPath = .husky) calls a
// script the agent edited. With the sandbox on the commit runs in the agent's bubblewrap box: the script cannot
// write outside the repo, into $HOME or .agent-collab; what it changes in .git beyond the commit (a branch, a file
// that steers git) is undone with the commit and handed to the person (exit 3). A benign hook that formats a file
// and stages it still lets the commit land. Real git, real bwrap, the session's own wiring, a fake agent.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runHeadless } from '../../../src/modes/headless.js';
import { gitLog, sink, tempRepo } from '../../helpers/repo.js';

type Repo = ReturnType<typeof tempRepo>;

let cleanup: (() => void) | undefined;
const home = process.env.HOME;
afterEach(() => {
  process.env.HOME = home;
  cleanup?.();
});

const PLAN = '# Task: t\n\n## Steps\n1. [ ] Add a.txt\n';
const HOOK = '#!/bin/sh\nsh ./scripts/check.sh\n';

function git(repo: Repo, ...args: string[]): string {
  return execFileSync('git', args, { cwd: repo.dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** A repo with a tracked husky-style hook calling scripts/check.sh; the fake executor rewrites check.sh as `script`. */
function repoWhoseAgentEditsTheHookScript(script: (repo: Repo) => string): Repo {
  const repo = tempRepo();
  cleanup = repo.cleanup;
  mkdirSync(path.join(repo.dir, '.husky'));
  mkdirSync(path.join(repo.dir, 'scripts'));
  writeFileSync(path.join(repo.dir, '.husky', 'pre-commit'), HOOK);
  chmodSync(path.join(repo.dir, '.husky', 'pre-commit'), 0o755);
  writeFileSync(path.join(repo.dir, 'scripts', 'check.sh'), 'exit 0\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'hooks');
  git(repo, 'config', 'core.hooksPath', '.husky');
  const rules = [
    { when: { kind: 'write_plan' }, do: { text: PLAN } },
    { when: { kind: 'review' }, do: { verdict: 'APPROVED', text: '## Comments\n1. Fine.' } },
    {
      when: { kind: 'execute_step', step: 1 },
      do: { writeFiles: { 'a.txt': 'agent edit\n', 'scripts/check.sh': script(repo) }, text: 'Summary: add a.txt' },
    },
  ];
  const file = path.join(repo.home, 'script.json');
  writeFileSync(file, JSON.stringify({ rules }));
  mkdirSync(path.join(repo.dir, '.agent-collab'), { recursive: true });
  writeFileSync(
    path.join(repo.dir, '.agent-collab', 'config.toml'),
    `[roles]\nplanner = "fake"\nreviewer = "fake"\n[fake]\nscript = ${JSON.stringify(file)}\n[safety]\nsandbox = "on"\n[test]\nfallback_to_agent = false\n`,
  );
  return repo;
}

async function run(repo: Repo) {
  // The box keeps $HOME read-only: here the test's own home, so a write that got through would show.
  process.env.HOME = repo.home;
  const out = sink();
  const code = await runHeadless({
    cwd: repo.dir,
    homeDir: repo.home,
    goal: 'add a.txt',
    auto: true,
    autoApprove: true,
    json: true,
    resume: 'ask',
    stdout: out,
    stderr: sink(),
  });
  return { code, events: out.lines() };
}

describe('the step commit’s hooks run in the agent’s box', () => {
  it('a hook script the agent edited writes nothing outside the repo, in $HOME or .agent-collab; its .git changes are undone and asked about', async () => {
    const outside = path.join(os.tmpdir(), `ac-outside-${process.pid}-${Date.now()}.txt`);
    const repo = repoWhoseAgentEditsTheHookScript((r) =>
      [
        `echo out > ${JSON.stringify(outside)}`,
        `echo out > ../escaped-from-${path.basename(r.dir)}.txt`,
        'echo pwned >> "$HOME/.bashrc"',
        `echo pwned > ${JSON.stringify(path.join(r.home, 'planted'))}`,
        'echo hacked > .agent-collab/plan.md',
        `git config core.fsmonitor ${JSON.stringify(`touch ${path.join(r.dir, 'fsmonitor-ran')}`)}`,
        'git branch sneaky',
        'printf "#!/bin/sh\\ntouch ran\\n" > .git/hooks/post-checkout',
        'echo "a.txt" >> .git/info/exclude',
        'exit 0',
      ].join('\n'),
    );
    const head = git(repo, 'rev-parse', 'HEAD');
    const config = readFileSync(path.join(repo.dir, '.git', 'config'), 'utf8');
    const { code, events } = await run(repo);

    expect(code).toBe(3);
    const asked = events.find((e) => e.event === 'needs_human');
    expect(asked).toMatchObject({ kind: 'forbidden_change', step: 1 });
    // git's config and info/ are read-only in the box (the `git config` and the exclude write failed); what the
    // hook could write is named
    expect(asked?.changes).toEqual(
      expect.arrayContaining(['.git/hooks/post-checkout created', "branch 'sneaky' created"]),
    );
    expect(asked?.changes).not.toContain('.git/info/exclude changed');
    expect(asked?.undone).toEqual(
      expect.arrayContaining([expect.stringMatching(/^the step's commit [0-9a-f]{7} undone/)]),
    );
    // nothing stuck outside the repo or in $HOME
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(path.join(path.dirname(repo.dir), `escaped-from-${path.basename(repo.dir)}.txt`))).toBe(false);
    expect(readdirSync(repo.home).sort()).toEqual(['script.json']);
    // agent-collab's plan is its own; git's config, hooks and info/ are as before; the branch is gone
    expect(readFileSync(path.join(repo.dir, '.agent-collab', 'plan.md'), 'utf8')).toContain('1. [ ] Add a.txt');
    expect(readFileSync(path.join(repo.dir, '.git', 'config'), 'utf8')).toBe(config);
    expect(existsSync(path.join(repo.dir, '.git', 'hooks', 'post-checkout'))).toBe(false);
    expect(readFileSync(path.join(repo.dir, '.git', 'info', 'exclude'), 'utf8').split('\n')).not.toContain('a.txt');
    expect(existsSync(path.join(repo.dir, 'fsmonitor-ran'))).toBe(false);
    expect(git(repo, 'branch', '--list', 'sneaky')).toBe('');
    // the commit is undone, the step's work is still in the working tree
    expect(git(repo, 'rev-parse', 'HEAD')).toBe(head);
    expect(git(repo, 'symbolic-ref', 'HEAD')).toBe('refs/heads/main');
    expect(gitLog(repo.dir).some((s) => s.startsWith('[Step'))).toBe(false);
    expect(readFileSync(path.join(repo.dir, 'a.txt'), 'utf8')).toBe('agent edit\n');
  });

  it('a benign hook that formats a file and stages it lets the commit land with the formatted file', async () => {
    const repo = repoWhoseAgentEditsTheHookScript(() => 'printf "formatted\\n" > a.txt\ngit add a.txt\n');
    const { code } = await run(repo);
    expect(code).toBe(0);
    expect(gitLog(repo.dir)[0]).toMatch(/^\[Step 1\] /);
    expect(git(repo, 'show', 'HEAD:a.txt')).toBe('formatted');
    expect(git(repo, 'branch', '--list')).toBe('* main');
  });
});
