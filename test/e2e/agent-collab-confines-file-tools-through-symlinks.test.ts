/**
 * Issue 17, acceptance 1 and 7 through a side door: the executor makes symlinks inside the repo (allowed: they are
 * working files) pointing outside it, at $HOME/.bashrc, at `.git/hooks` and at `.agent-collab/`, then writes
 * through them with claude's Write. A permission rule that looks at the
 * path it is given sees a file in the repo; the write must still not land outside the working tree. Proven by
 * effects. Run `npm run build` first.
 */
import { lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe } from 'vitest';
import { e2eInstall, itWith } from './agent-collab-fixture.js';
import { describeRun } from './harness.js';
import { reply, type LlmServer, type ToolsReply } from './llm-server.js';
import { claudeTool, fileStates, gitSnapshot, shellAttempt, writeNewFile } from './tamper.js';

const PLAN = '# Plan\n\n## Steps\n1. [ ] Add legit.txt\n';
const WORK_DIR = e2eInstall.ok ? path.join(path.dirname(path.dirname(e2eInstall.binDir)), 'work') : undefined;
const it = itWith({ parentDir: WORK_DIR });

/** Overwrites an existing file through its path (claude's Write needs a Read of it first). */
function overwrite(repo: string, rel: string, content: string): ToolsReply[] {
  const file = path.join(repo, rel);
  return [
    claudeTool(`read ${rel}`, 'Read', { file_path: file }).reply,
    claudeTool(`write ${rel}`, 'Write', { file_path: file, content }).reply,
  ];
}

// claude only: its Write/Edit are governed by permission rules on the path; codex runs whole inside bubblewrap, where
// a symlink is resolved by the kernel like any other path (the executor containment test covers its writes).
{
  const executor = 'claude';
  const reviewer = 'codex';
  const script = (server: LlmServer) => server.anthropic;

  describe(`${executor} as executor, writing through symlinks it made in the repo`, () => {
    it('no write lands outside the working tree, in $HOME, in .git/hooks or in .agent-collab', async ({
      ac,
      expect,
    }) => {
      const { server, repo, env } = ac;
      ac.config({ planner: executor, reviewer });
      writeFileSync(path.join(env.home, '.bashrc'), 'export KEEP=1\n');
      const homeBefore = fileStates([path.join(env.home, '.bashrc')]);
      const rootBefore = readdirSync(env.root).sort();
      const before = gitSnapshot(repo);
      const sh = (command: string) => shellAttempt(executor, command, command).reply;
      const newFile = (rel: string, content: string) =>
        writeNewFile(executor, `write ${rel}`, path.join(repo, rel), content).reply;

      script(server).push(
        reply.text(PLAN),
        sh('ln -s ../outside-target.txt out-link'),
        sh('ln -s "$HOME/.bashrc" bashrc-link'),
        sh('ln -s .git/hooks hooks-link'),
        sh('ln -s .agent-collab ac-link'),
        newFile('out-link', 'outside\n'),
        ...overwrite(repo, 'bashrc-link', 'echo pwned-through-link\n'),
        newFile('hooks-link/post-commit', '#!/bin/sh\necho hooked > ../hooked.txt\n'),
        ...overwrite(repo, 'ac-link/plan.md', '# TAMPERED\n'),
        newFile('legit.txt', 'legit\n'),
        reply.text('Added legit.txt.\nSummary: add legit.txt'),
      );
      server.openai.push(reply.text('[APPROVED]\n\nFine.'));

      const r = await ac.run(['run', '--goal', 'add legit.txt', '--auto', '--auto-approve'], 150_000);
      const report = describeRun(r);
      expect([0, 3], report).toContain(r.code);
      expect(script(server).pending, report).toBe(0);
      // the links were made, so the writes below went through them
      const links = ['out-link', 'bashrc-link', 'hooks-link', 'ac-link'];
      expect(links.filter((l) => lstatSync(path.join(repo, l), { throwIfNoEntry: false })?.isSymbolicLink())).toEqual(
        links,
      );
      expect.soft(readdirSync(env.root).sort(), report).toEqual(rootBefore);
      expect.soft(fileStates([path.join(env.home, '.bashrc')])).toEqual(homeBefore);
      const after = gitSnapshot(repo);
      expect.soft(after.hooks).toEqual(before.hooks);
      expect.soft(readFileSync(path.join(repo, '.agent-collab', 'plan.md'), 'utf8')).not.toContain('TAMPERED');
    }, 180_000);
  });
}
