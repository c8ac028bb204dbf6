/**
 * opencode (opencode-ai, pinned) as planner and executor under agent-collab, codex reviewing, against the scripted
 * LLM server (opencode's provider is the bundled @ai-sdk/anthropic pointed at the server's Messages route, see
 * cli-env.ts). One run: the plan, a command the policy blocks (not run: the dir keeps its mode), a write outside the
 * repo (not on disk), a file written with bash, committed as step 1. Run `npm run build` first.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe } from 'vitest';
import { events, gitSubjects } from './agent-collab-run.js';
import { e2eInstall, it } from './agent-collab-fixture.js';
import { describeRun } from './harness.js';
import { reply } from './llm-server.js';

const PLAN = ['# Plan', '', '## Steps', '1. [ ] Create done.txt', ''].join('\n');
const bash = (command: string) => reply.tool('bash', { command, description: 'run it' });

describe('opencode under agent-collab', () => {
  // opencode prints nothing until its first step: its start (database, snapshot repo) took over 20 s on a loaded
  // 2-core machine, hence the longer idle limit.
  it(
    'plans and executes a step; a blocked command and a write outside the repo leave no trace',
    { timeout: 240_000 },
    async ({ ac, expect }) => {
      const { server, repo, env } = ac;
      if (!e2eInstall.ok) return;
      ac.config({
        planner: 'opencode',
        reviewer: 'codex',
        opencode: e2eInstall.opencode,
        wallSeconds: 180,
        idleSeconds: 120,
      });
      const data = path.join(repo, 'data');
      mkdirSync(data, { mode: 0o755 });
      const outside = path.join(env.root, 'outside.txt');
      server.anthropic.push(
        reply.text(PLAN),
        bash(`chmod -R 777 ${data}`),
        bash(`printf "x\\n" > ${outside}`),
        bash('printf "ok\\n" > done.txt'),
        reply.text('Wrote done.txt.\nSummary: add done.txt'),
      );
      server.openai.push(reply.text('[APPROVED]\n\nFine.'));

      const r = await ac.run(['run', '--goal', 'write done.txt', '--auto', '--auto-approve'], 200_000);
      expect(r.code, describeRun(r)).toBe(0);

      expect(statSync(data).mode & 0o777).toBe(0o755);
      expect(existsSync(outside)).toBe(false);
      expect(readFileSync(path.join(repo, 'done.txt'), 'utf8')).toBe('ok\n');
      expect(gitSubjects(repo)[0]).toBe('[Step 1] add done.txt');
      expect(events(r, 'command')).toContainEqual(
        expect.objectContaining({ command: `chmod -R 777 ${data}`, decision: 'deny' }),
      );
      // The denial reached the model; opencode asked only the scripted server (no title request: --title).
      expect(server.anthropic.requests.some((q) => q.rawBody.includes('agent-collab denied this command'))).toBe(true);
      expect(server.anthropic.pending + server.openai.pending).toBe(0);
    },
  );
});
