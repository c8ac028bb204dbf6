/**
 * opencode (opencode-ai, pinned) as planner, reviewer and executor under agent-collab, against the scripted LLM
 * server (opencode's provider is the bundled @ai-sdk/anthropic pointed at the server's Messages route, see
 * cli-env.ts). One run: the plan, a read-only review, then the step in the resumed planner session: a command the
 * policy blocks (not run: the dir keeps its mode), a write outside the repo (not on disk), a file written with bash,
 * committed as step 1. Then the gate without its plugin: the command does not run. Run `npm run build` first.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe } from 'vitest';
import { outerBoxCommand } from '../../src/adapters/confinement/index.js';
import {
  buildOpencodeArgs,
  opencodeConfig,
  opencodeEnv,
  opencodeOuterBox,
  prepareOpencode,
} from '../../src/adapters/opencode/opencode-agent.js';
import { GATE_NOT_LOADED, newOpencodeState, translateOpencodeLine } from '../../src/adapters/opencode/translate.js';
import { events, gitSubjects } from './agent-collab-run.js';
import { e2eInstall, it } from './agent-collab-fixture.js';
import { describeRun, runCli } from './harness.js';
import { reply } from './llm-server.js';

const PLAN = ['# Plan', '', '## Steps', '1. [ ] Create done.txt', ''].join('\n');
const bash = (command: string) => reply.tool('bash', { command, description: 'run it' });

/** Processes whose working dir is under `dir` (opencode runs in the test's repo). */
function processesIn(dir: string): number[] {
  const out: number[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readlinkSync(`/proc/${pid}/cwd`).startsWith(dir)) out.push(Number(pid));
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

describe('opencode under agent-collab', () => {
  // opencode plans, reviews (a read-only turn) and executes (its planner session resumed) in one run.
  it(
    'plans, reviews and executes a step, resuming its session; a blocked command and a write outside the repo leave no trace',
    { timeout: 150_000 },
    async ({ ac, expect }) => {
      const { server, repo, env } = ac;
      if (!e2eInstall.ok) return;
      ac.config({
        planner: 'opencode',
        reviewer: 'opencode',
        opencode: e2eInstall.opencode,
        wallSeconds: 120,
        idleSeconds: 90,
      });
      const data = path.join(repo, 'data');
      mkdirSync(data, { mode: 0o755 });
      const outside = path.join(env.root, 'outside.txt');
      server.anthropic.push(
        reply.text(PLAN),
        reply.text('[APPROVED]\n\nFine.'),
        bash(`chmod -R 777 ${data}`),
        bash(`printf "x\\n" > ${outside}`),
        bash('printf "ok\\n" > done.txt'),
        reply.text('Wrote done.txt.\nSummary: add done.txt'),
      );

      const r = await ac.run(['run', '--goal', 'write done.txt', '--auto', '--auto-approve'], 140_000);
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
      expect(server.anthropic.pending).toBe(0);

      // The executor turn resumed the planner's session: the same session id, and the model got the plan turn's
      // conversation with its prompt; the reviewer's read-only turn had a session of its own.
      const sessions = (role: string) =>
        events(r, 'agent')
          .filter((e) => e.role === role && e.type === 'session')
          .map((e) => e.sessionId);
      const planner = sessions('planner');
      expect(planner.length).toBe(2);
      expect(new Set(planner).size).toBe(1);
      expect(sessions('reviewer')).not.toContain(planner[0]);
      const messages = (i: number) =>
        (JSON.parse(server.anthropic.requests[i]!.rawBody) as { messages: unknown[] }).messages;
      expect(messages(0).length).toBe(1);
      expect(messages(2).length).toBeGreaterThan(2);

      // Nothing of opencode is left running (it serves its API during a run).
      expect(processesIn(env.root)).toEqual([]);
    },
  );

  // The gate must not depend on opencode loading the plugin: opencode logs a plugin that fails to load and goes on
  // without it. Here the plugin cannot load at all; the command must still not run (its shell refuses it). opencode
  // runs in the box a turn runs it in (the adapter's own argv): unboxed, with its config dir writable, it first
  // installed its plugin SDK there from npm (measured: 20 s of a 59 s test under load).
  it('runs no command when opencode cannot load the gate plugin', { timeout: 120_000 }, async ({ ac, expect }) => {
    const { server, repo, env } = ac;
    if (!e2eInstall.ok) return;
    const data = path.join(repo, 'data');
    mkdirSync(data, { mode: 0o755 });
    // In HOME: the box shows it (read-only), while its /tmp is private.
    const broken = path.join(env.env.HOME!, 'broken-plugin.js');
    writeFileSync(broken, "throw new Error('this plugin cannot load');\n");
    const turn = { access: 'workspace-write', cwd: repo } as const;
    // A hook that would allow everything: were the plugin loaded, the command would run.
    const hook = { command: 'echo allow', env: {}, timeoutSeconds: 10 };
    const childEnv = {
      ...opencodeEnv(turn, hook, env.env),
      OPENCODE_CONFIG_CONTENT: JSON.stringify(opencodeConfig(turn, hook, broken)),
    };
    expect(prepareOpencode(env.env, repo)).toBeNull();
    const workdir = path.join(repo, '.agent-collab');
    mkdirSync(workdir, { recursive: true });
    const boxed = outerBoxCommand(
      opencodeOuterBox(env.env, repo),
      { repo, workdir },
      false,
      e2eInstall.opencode,
      [...buildOpencodeArgs(null), 'go'],
      childEnv,
    );
    expect(boxed).not.toBeNull();
    server.anthropic.push(bash(`chmod -R 777 ${data}`), reply.text('Done.'));
    const r = await runCli(boxed!.command, [...boxed!.args], {
      cwd: repo,
      env: childEnv,
      timeoutMs: 100_000,
    });
    expect(r.code, describeRun(r)).toBe(0);
    expect(statSync(data).mode & 0o777).toBe(0o755);
    // agent-collab reads that refusal as the turn's failure, not as a command that ran.
    const state = newOpencodeState();
    const seen = r.lines.flatMap((l) => translateOpencodeLine(l, state));
    expect(seen).toContainEqual({ type: 'error', kind: 'agent_error', message: GATE_NOT_LOADED });
    expect(seen.filter((e) => e.type === 'command')).toEqual([]);
  });
});
