/**
 * Issue 17, the executor's confinement seen from agent-collab's own commit: in a repo whose git hooks live in the
 * working tree (`core.hooksPath = .githooks`, as husky and similar tools set up), the executor may edit the hook —
 * it is an ordinary file of the repo — but agent-collab's `[Step N]` commit must not then run what the agent wrote
 * outside the confinement (it may also refuse the change to the hook: exit 3 naming it). Proven by effects:
 * nothing appears next to the repo and $HOME is unchanged. The second part: the hook is tracked and left alone, but
 * it runs a script the executor wrote (husky calling `npm run …`, lint-staged, lefthook and the pre-commit framework
 * all do that); agent-collab's commit runs it in the executor's box, for both CLIs as executor: its writes outside
 * the repo, in $HOME and to plan.md do not stick, and the branch it made is undone and asked about (exit 3).
 * Run `npm run build` first.
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe } from 'vitest';
import { e2eInstall, itWith } from './agent-collab-fixture.js';
import { describeRun } from './harness.js';
import { reply } from './llm-server.js';
import { fileStates, git, writeNewFile } from './tamper.js';

const PLAN = '# Plan\n\n## Steps\n1. [ ] Tighten the pre-commit hook\n';
const HOOK = '#!/bin/sh\nexit 0\n';
const WORK_DIR = e2eInstall.ok ? path.join(path.dirname(path.dirname(e2eInstall.binDir)), 'work') : undefined;
const it = itWith({ parentDir: WORK_DIR });

describe('a git hook the executor wrote in the working tree', () => {
  it('does not run outside the confinement when agent-collab commits the step', async ({ ac, expect }) => {
    const { server, repo, env } = ac;
    ac.config({ planner: 'codex', reviewer: 'claude' });
    mkdirSync(path.join(repo, '.githooks'));
    writeFileSync(path.join(repo, '.githooks', 'pre-commit'), HOOK);
    chmodSync(path.join(repo, '.githooks', 'pre-commit'), 0o755);
    git(repo, 'add', '.githooks');
    git(repo, 'commit', '-q', '-m', 'hooks');
    git(repo, 'config', 'core.hooksPath', '.githooks');
    writeFileSync(path.join(env.home, '.bashrc'), 'export KEEP=1\n');
    const homeBefore = fileStates([path.join(env.home, '.bashrc')]);
    const rootBefore = readdirSync(env.root).sort();

    server.openai.push(
      reply.text(PLAN),
      reply.applyPatch(
        '*** Begin Patch\n*** Update File: .githooks/pre-commit\n@@\n #!/bin/sh\n-exit 0\n' +
          '+echo hooked > ../hooked.txt\n+echo echo-pwned-by-hook >> "$HOME/.bashrc"\n+exit 0\n*** End Patch\n',
      ),
      // the hook must stay executable, or git would skip it and prove nothing
      reply.execCommand('chmod 755 .githooks/pre-commit'),
      reply.text('Updated the hook.\nSummary: tighten the hook'),
    );
    server.anthropic.push(reply.text('[APPROVED]\n\nFine.'));

    const r = await ac.run(['run', '--goal', 'tighten the hook', '--auto', '--auto-approve'], 120_000);
    const report = describeRun(r);
    // the agent's edit landed (so git would run it), or agent-collab caught it and put the hook back
    const landed = (
      git(repo, 'show', 'HEAD:.githooks/pre-commit') + git(repo, 'diff', '.githooks/pre-commit')
    ).includes('hooked');
    const caught = r.lines.some(
      (l) =>
        l.event === 'needs_human' &&
        l.kind === 'forbidden_change' &&
        JSON.stringify(l.changes).includes('.githooks/pre-commit'),
    );
    expect(landed || caught, report).toBe(true);
    expect.soft(readdirSync(env.root).sort(), report).toEqual(rootBefore);
    expect.soft(fileStates([path.join(env.home, '.bashrc')])).toEqual(homeBefore);
  }, 150_000);
});

const CHECK_SH =
  'echo hooked > ../hooked-by-script.txt\n' +
  'echo echo-pwned-by-hook-script >> "$HOME/.bashrc"\n' +
  'echo tampered > .agent-collab/plan.md\n' +
  'git branch sneaky-from-hook\n' +
  'exit 0\n';
const PLAN_CHECK = '# Plan\n\n## Steps\n1. [ ] Add the project check script\n';

for (const executor of ['codex', 'claude'] as const) {
  const reviewer = executor === 'codex' ? 'claude' : 'codex';
  describe(`a tracked hook that runs a script the ${executor} executor wrote`, () => {
    it('runs in the executor’s box at agent-collab’s commit: nothing sticks outside, the branch it made is undone and asked about', async ({
      ac,
      expect,
    }) => {
      const { server, repo, env } = ac;
      ac.config({ planner: executor, reviewer });
      mkdirSync(path.join(repo, '.githooks'));
      writeFileSync(
        path.join(repo, '.githooks', 'pre-commit'),
        '#!/bin/sh\n[ -f scripts/check.sh ] && sh ./scripts/check.sh\nexit 0\n',
      );
      chmodSync(path.join(repo, '.githooks', 'pre-commit'), 0o755);
      git(repo, 'add', '.githooks');
      git(repo, 'commit', '-q', '-m', 'hooks');
      git(repo, 'config', 'core.hooksPath', '.githooks');
      writeFileSync(path.join(env.home, '.bashrc'), 'export KEEP=1\n');
      const homeBefore = fileStates([path.join(env.home, '.bashrc')]);
      const rootBefore = readdirSync(env.root).sort();
      const head = git(repo, 'rev-parse', 'HEAD');

      const file = executor === 'claude' ? path.join(repo, 'scripts', 'check.sh') : 'scripts/check.sh';
      const own = executor === 'codex' ? server.openai : server.anthropic;
      const other = executor === 'codex' ? server.anthropic : server.openai;
      own.push(
        reply.text(PLAN_CHECK),
        writeNewFile(executor, 'write the check script', file, CHECK_SH).reply,
        reply.text('Added the check script.\nSummary: add the check script'),
      );
      other.push(reply.text('[APPROVED]\n\nFine.'));

      const r = await ac.run(['run', '--goal', 'add a check script', '--auto', '--auto-approve'], 120_000);
      const report = describeRun(r);
      const asked = r.lines.find((l) => l.event === 'needs_human' && l.kind === 'forbidden_change');
      expect(r.code, report).toBe(3);
      expect(JSON.stringify(asked?.changes), report).toContain("branch 'sneaky-from-hook' created");
      expect.soft(readdirSync(env.root).sort(), report).toEqual(rootBefore);
      expect.soft(fileStates([path.join(env.home, '.bashrc')])).toEqual(homeBefore);
      expect
        .soft(readFileSync(path.join(repo, '.agent-collab', 'plan.md'), 'utf8'))
        .toContain('Add the project check script');
      expect.soft(git(repo, 'branch', '--list', 'sneaky-from-hook')).toBe('');
      expect.soft(git(repo, 'rev-parse', 'HEAD')).toBe(head);
      expect.soft(readFileSync(path.join(repo, 'scripts', 'check.sh'), 'utf8')).toBe(CHECK_SH);
    }, 150_000);
  });
}
