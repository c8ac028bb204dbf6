/**
 * agent-collab (the built CLI, headless) enforcing `[safety]` on the agents' own shell commands, for codex and for
 * claude as the executing planner: a blocked command inside the repo is not run and the agent is told why, the
 * step still finishes; `git push` needs confirmation, so without a person it is denied unless `--allow-cmd` covers
 * it. (Holding a command for a person who answers is proven on the real CLIs in command-hook-on-real-clis.) Run `npm run build` first (`npm test` does).
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe } from 'vitest';
import { it } from './agent-collab-fixture.js';
import { events, gitSubjects } from './agent-collab-run.js';
import { describeRun } from './harness.js';
import { reply, type LlmServer, type Reply, type ToolsReply } from './llm-server.js';

const PLAN = '# Plan\n\n## Steps\n1. [ ] Make the data dir usable and publish\n';

/** The executing planner's tool call, in its CLI's shape. */
function shell(planner: 'codex' | 'claude', command: string): ToolsReply {
  return planner === 'codex' ? reply.execCommand(command) : reply.tool('Bash', { command });
}

/** A bare repo outside `repo` as its `origin`; `head()` is the subject of its `main` (throws while there is none). */
function localRemote(repo: string): { head(): string; remove(): void } {
  const remote = mkdtempSync(path.join(os.tmpdir(), 'ac-remote-'));
  execFileSync('git', ['init', '-q', '--bare', remote]);
  execFileSync('git', ['remote', 'add', 'origin', remote], { cwd: repo });
  return {
    head: () =>
      execFileSync('git', ['--git-dir', remote, 'log', '--format=%s', '-1', 'main'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim(),
    remove: () => rmSync(remote, { recursive: true, force: true }),
  };
}

for (const planner of ['codex', 'claude'] as const) {
  const reviewer = planner === 'codex' ? 'claude' : 'codex';
  const push = (server: LlmServer, replies: Reply[]) =>
    (planner === 'codex' ? server.openai : server.anthropic).push(...replies);
  const review = (server: LlmServer) =>
    (reviewer === 'claude' ? server.anthropic : server.openai).push(reply.text('[APPROVED]\n\nFine.'));

  describe(`${planner} executing under agent-collab's command policy`, () => {
    // One run proves both denials (each run is three real CLI starts): the blocked command and the push a person
    // would have to confirm; a second run, with --allow-cmd, proves the allowed push.
    it('a blocked command and a git push without a person are not run, the agent is told why, and the step still finishes', async ({
      ac,
      expect,
    }) => {
      const { server, repo } = ac;
      ac.config({ planner, reviewer });
      const data = path.join(repo, 'data');
      mkdirSync(data, { mode: 0o755 });
      const remote = localRemote(repo);
      try {
        push(server, [
          reply.text(PLAN),
          shell(planner, `chmod -R 777 ${data}`),
          shell(planner, 'git push origin main'),
          shell(planner, 'printf "ok\\n" > done.txt'),
          reply.text('Could not chmod nor push; wrote done.txt.\nSummary: add done.txt'),
        ]);
        review(server);
        const r = await ac.run(['run', '--goal', 'data dir', '--auto', '--auto-approve'], 90_000);
        expect(r.code, describeRun(r)).toBe(0);
        expect(statSync(data).mode & 0o777).toBe(0o755);
        expect(events(r, 'command')).toEqual([
          expect.objectContaining({
            role: 'planner',
            command: `chmod -R 777 ${data}`,
            decision: 'deny',
            rule: 'chmod 777',
          }),
          expect.objectContaining({ command: 'git push origin main', decision: 'deny', rule: 'git push' }),
        ]);
        const requests = planner === 'codex' ? server.openai.requests : server.anthropic.requests;
        expect(requests.some((q) => q.rawBody.includes('chmod 777'))).toBe(true); // the denial reached the model
        expect(() => remote.head()).toThrow(); // nothing pushed
        expect(gitSubjects(repo)[0]).toBe('[Step 1] add done.txt');
      } finally {
        remote.remove();
      }
    });

    it('git push, which needs a person to confirm, runs when --allow-cmd covers it', async ({ ac, expect }) => {
      const { server, repo } = ac;
      ac.config({ planner, reviewer });
      // This test is about the policy. The remote is a local dir outside the repo, which confinement (on by
      // default) rightly keeps the agent from writing, so the push could never land: confinement is off here.
      appendFileSync(path.join(repo, '.agent-collab', 'config.toml'), '\n[safety]\nsandbox = "off"\n');
      const remote = localRemote(repo);
      try {
        push(server, [
          reply.text(PLAN),
          shell(planner, 'git push origin main'),
          reply.text('Pushed.\nSummary: nothing to change'),
        ]);
        review(server);
        const allowed = await ac.run(
          ['run', '--goal', 'publish', '--auto', '--auto-approve', '--allow-cmd', 'git push origin'],
          90_000,
        );
        expect(allowed.code, describeRun(allowed)).toBe(0);
        expect(events(allowed, 'command')).toEqual([
          expect.objectContaining({ command: 'git push origin main', decision: 'allow' }),
        ]);
        expect(remote.head()).toBe('initial');
      } finally {
        remote.remove();
      }
    });
  });
}
