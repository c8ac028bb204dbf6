/**
 * agent-collab's command hook in the REAL `codex` and `claude` CLIs, driven through the adapters (CliAgent with the
 * codex/claude flavors and a hook endpoint), with a gate over the real command policy and the default [safety]
 * rules. The hook is the bash client, its session token reaching it through the CLI's environment: a
 * blocked command does not run and the model is told why; a confirm-required `git push` is held until the test
 * answers (deny / allow) and the CLI honours the answer; a hook that cannot reach agent-collab denies; a CLI that
 * runs a command without the hook (hook skipped) is stopped and the round fails; a claude read-only turn runs
 * without the hook and without Bash.
 * Skipped (with the installer's reason) only when the pinned CLIs could not be installed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { it as base, describe } from 'vitest';
import { claudeEnv, claudeFlavor } from '../../src/adapters/claude/claude-agent.js';
import { CliAgent, type CliFlavor } from '../../src/adapters/cli-agent.js';
import { CODEX_HOOK_TRUST_FLAG, codexFlavor } from '../../src/adapters/codex/codex-agent.js';
import { startCommandHookServer, type CommandHookServer } from '../../src/adapters/command-hook/server.js';
import type { AgentEvent, AgentTurn } from '../../src/core/types.js';
import { defaultPolicyGate, type PolicyGate } from '../integration/adapters/policy-gate.js';
import { makeCliEnv, type CliEnv } from './cli-env.js';
import { e2eClis, waitFor } from './harness.js';
import { reply, startLlmServer, type LlmServer } from './llm-server.js';
import { collect } from '../helpers/agent-events.js';

const clis = await e2eClis();
type Cli = 'codex' | 'claude';

interface E2e {
  server: LlmServer;
  env: CliEnv;
  repo: string;
  policy: PolicyGate;
  hooks: CommandHookServer;
  debug: string[];
  /** The CLI's agent over the adapter, with the planner's hook; `flavor` adjusts the adapter (e.g. drop a flag). */
  agent(cli: Cli, adjust?: (f: CliFlavor) => CliFlavor): CliAgent;
  /** The model asks to run `command` once, then answers "finished". */
  script(cli: Cli, command: string): void;
  /** Text of the model request that followed the tool call (it carries the tool result). */
  followUp(cli: Cli): string;
}

const it = base.extend<{ e2e: E2e }>({
  e2e: async ({ skip }, use) => {
    if (!clis.ok) return skip(`real CLIs not installed: ${clis.reason}`);
    const server = await startLlmServer();
    const env = makeCliEnv({ serverUrl: server.url, binDir: clis.binDir, prefix: 'ac-hook-e2e-' });
    const repo = env.makeRepo();
    const policy = await defaultPolicyGate();
    const hooks = await startCommandHookServer({
      gate: policy.gate,
      confirmTimeoutSeconds: policy.confirmTimeoutSeconds,
    });
    const debug: string[] = [];
    const agents: CliAgent[] = [];
    try {
      await use({
        server,
        env,
        repo,
        policy,
        hooks,
        debug,
        agent(cli, adjust = (f) => f) {
          const flavor: CliFlavor =
            cli === 'codex'
              ? { ...codexFlavor, env: () => env.env }
              : { ...claudeFlavor, env: () => claudeEnv(env.env) };
          const agent = new CliAgent(adjust(flavor), {
            name: cli,
            binary: cli === 'codex' ? clis.codex : clis.claude,
            debug: (source, line) => debug.push(`${source}: ${line}`),
            debugSource: `planner/${cli}`,
            hook: hooks.endpoint('planner'),
            wallTimeoutMs: 90_000,
            idleTimeoutMs: 60_000,
          });
          agents.push(agent);
          return agent;
        },
        script(cli, command) {
          if (cli === 'codex') server.openai.push(reply.execCommand(command), reply.text('finished'));
          else server.anthropic.push(reply.tool('Bash', { command }), reply.text('finished'));
        },
        followUp: (cli) => (cli === 'codex' ? server.openai.text(1) : server.anthropic.text(1)),
      });
    } finally {
      // An answered CLI may still be saving its session into HOME: stop() waits until it has exited.
      await Promise.all(agents.map((a) => a.stop()));
      await hooks.close();
      await server.close();
      env.cleanup();
    }
  },
});

function turn(cwd: string, prompt = 'Do step 1'): AgentTurn {
  return {
    prompt,
    cwd,
    access: 'workspace-write',
    meta: { role: 'planner', kind: 'execute_step', iteration: 0, step: 1 },
  };
}

function describeEvents(events: AgentEvent[], debug: string[]): string {
  return `events: ${JSON.stringify(events).slice(-3000)}\ndebug:\n${debug.slice(-30).join('\n').slice(-5000)}`;
}

/** A bare repo inside the work tree (the codex sandbox lets commands write there) as `origin`. */
function addLocalRemote(env: CliEnv, repo: string): string {
  const remote = path.join(repo, 'remote.git');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: env.env, stdio: 'pipe' }).toString();
  git('init', '-q', '--bare', remote);
  git('remote', 'add', 'origin', remote);
  writeFileSync(path.join(repo, '.git', 'info', 'exclude'), 'remote.git/\n');
  return remote;
}

function remoteHas(env: CliEnv, remote: string, branch: string): boolean {
  try {
    execFileSync('git', ['--git-dir', remote, 'rev-parse', '--verify', `refs/heads/${branch}`], {
      env: env.env,
      stdio: 'pipe',
    });
    return true;
  } catch {
    return false;
  }
}

describe.for(['codex', 'claude'] as const)('%s: the command hook', (cli) => {
  // One CLI run for the three answers (a real CLI start is the cost): the policy's block, then the person's deny
  // and allow of a held push, each checked by its effect on disk and in the model's next request.
  it('chmod -R 777 inside the repo is blocked; git push is held for the person and the CLI honours deny, then allow', async ({
    e2e,
    expect,
  }) => {
    const dir = path.join(e2e.repo, 'data');
    mkdirSync(dir, { mode: 0o755 });
    const chmod = `chmod -R 777 ${dir}`;
    const remote = addLocalRemote(e2e.env, e2e.repo);
    const push = 'git push origin main';
    if (cli === 'codex')
      e2e.server.openai.push(
        reply.execCommand(chmod),
        reply.execCommand(push),
        reply.execCommand(push),
        reply.text('finished'),
      );
    else
      e2e.server.anthropic.push(
        reply.tool('Bash', { command: chmod }),
        reply.tool('Bash', { command: push }),
        reply.tool('Bash', { command: push }),
        reply.text('finished'),
      );
    const run = collect(e2e.agent(cli).start(turn(e2e.repo)));
    const answerHeld = async (answer: 'deny' | 'allow') => {
      expect(await waitFor(() => e2e.policy.held.length === 1, 45_000), describeEvents([], e2e.debug)).toBe(true);
      const held = e2e.policy.held.shift()!;
      expect(held.check).toEqual({ role: 'planner', command: push, cwd: e2e.repo });
      expect(held.rule).toBe('git push');
      expect(e2e.hooks.pendingChecks).toBe(1);
      expect(remoteHas(e2e.env, remote, 'main')).toBe(false);
      held.answer(answer === 'allow' ? { allow: true } : { allow: false, reason: 'the person denied the push' });
    };
    await answerHeld('deny');
    await answerHeld('allow');
    const events = await run;
    expect(events.at(-1), describeEvents(events, e2e.debug)).toMatchObject({ type: 'done', text: 'finished' });
    expect(statSync(dir).mode & 0o777).toBe(0o755);
    expect(e2e.policy.seen.map((s) => [s.check.command, s.decision])).toEqual([
      [chmod, 'block'],
      [push, 'confirm'],
      [push, 'confirm'],
    ]);
    expect(remoteHas(e2e.env, remote, 'main')).toBe(true);
    const request = (n: number) => (cli === 'codex' ? e2e.server.openai.text(n) : e2e.server.anthropic.text(n));
    expect(request(1)).toContain(`blocked by agent-collab's command policy (rule "chmod 777"`);
    expect(request(2)).toContain('the person denied the push');
    expect(request(2)).not.toContain('main -> main');
    expect(request(3)).toContain('main -> main'); // git push's report reached the model
  }, 90_000);

  it('a hook that cannot reach agent-collab (server closed before the tool call) denies', async ({ e2e, expect }) => {
    e2e.script(cli, 'touch marker.txt');
    const agent = e2e.agent(cli);
    await e2e.hooks.close();
    const events = await collect(agent.start(turn(e2e.repo)));
    expect(events.at(-1), describeEvents(events, e2e.debug)).toMatchObject({ type: 'done', text: 'finished' });
    expect(existsSync(path.join(e2e.repo, 'marker.txt'))).toBe(false);
    expect(e2e.followUp(cli)).toMatch(
      /agent-collab: cannot reach agent-collab to check the command \(nothing answers on port \d+\), so the command was denied/,
    );
  }, 90_000);
});

describe('claude read-only turns', () => {
  it('run without the hook (no --settings) and without Bash: a Bash call the model tries is refused by claude, nothing runs', async ({
    e2e,
    expect,
  }) => {
    e2e.script('claude', 'touch marker.txt');
    let argv: string[] = [];
    const recordArgs = (f: CliFlavor): CliFlavor => ({ ...f, args: (t, s, h) => (argv = f.args(t, s, h)) });
    const readOnly: AgentTurn = {
      ...turn(e2e.repo),
      access: 'read-only',
      meta: { role: 'reviewer', kind: 'review', iteration: 1, step: null },
    };
    const events = await collect(e2e.agent('claude', recordArgs).start(readOnly));
    expect(events.at(-1), describeEvents(events, e2e.debug)).toMatchObject({ type: 'done', text: 'finished' });
    expect(argv.slice(-2)).toEqual(['--tools', 'Read,Grep,Glob']); // an allowlist without Bash
    expect(argv).not.toContain('--settings');
    expect(existsSync(path.join(e2e.repo, 'marker.txt'))).toBe(false);
    expect(e2e.hooks.checkedCommands).toEqual([]);
    expect(events.some((e) => e.type === 'command' && e.status === 'completed')).toBe(false);
  }, 90_000);
});

describe('a command that ran without the hook', () => {
  it('codex without --dangerously-bypass-hook-trust skips the hook and runs the command: the adapter stops it and fails the round', async ({
    e2e,
    expect,
  }) => {
    e2e.script('codex', 'touch marker.txt');
    const dropTrust = (f: CliFlavor): CliFlavor => ({
      ...f,
      args: (t, s, h) => f.args(t, s, h).filter((a) => a !== CODEX_HOOK_TRUST_FLAG),
    });
    const events = await collect(e2e.agent('codex', dropTrust).start(turn(e2e.repo)));
    expect(e2e.hooks.checkedCommands).toEqual([]); // the hook never ran
    expect(events.some((e) => e.type === 'done')).toBe(false);
    expect(events.at(-1), describeEvents(events, e2e.debug)).toEqual({
      type: 'error',
      kind: 'agent_error',
      message: expect.stringMatching(
        /^codex ran a shell command that agent-collab's command hook had not approved, so agent-collab stopped it: touch marker\.txt\./,
      ),
    });
  }, 90_000);

  it('codex exec resume passes the hook too: a blocked command in a resumed session does not run', async ({
    e2e,
    expect,
  }) => {
    e2e.server.openai.push(reply.text('first turn'));
    const agent = e2e.agent('codex');
    const first = await collect(agent.start(turn(e2e.repo)));
    const sessionId = (first.at(-1) as Extract<AgentEvent, { type: 'done' }>).sessionId!;
    const dir = path.join(e2e.repo, 'data');
    mkdirSync(dir, { mode: 0o755 });
    e2e.server.openai.push(reply.execCommand(`chmod -R 777 ${dir}`), reply.text('finished'));
    const events = await collect(agent.resume(sessionId, turn(e2e.repo, 'Do step 2')));
    expect(events.at(-1), describeEvents(events, e2e.debug)).toMatchObject({ type: 'done', text: 'finished' });
    expect(statSync(dir).mode & 0o777).toBe(0o755);
    expect(e2e.server.openai.text(2)).toContain('blocked by agent-collab');
  }, 90_000);

  it('claude with hooks disabled in the user settings runs a read-only command unchecked: the adapter stops it and fails the round', async ({
    e2e,
    expect,
  }) => {
    mkdirSync(path.join(e2e.env.home, '.claude'), { recursive: true });
    writeFileSync(path.join(e2e.env.home, '.claude', 'settings.json'), JSON.stringify({ disableAllHooks: true }));
    e2e.script('claude', 'ls');
    const events = await collect(e2e.agent('claude').start(turn(e2e.repo)));
    expect(e2e.hooks.checkedCommands).toEqual([]);
    expect(events.at(-1), describeEvents(events, e2e.debug)).toEqual({
      type: 'error',
      kind: 'agent_error',
      message: expect.stringMatching(
        /^claude ran a shell command that agent-collab's command hook had not approved, so agent-collab stopped it: ls\./,
      ),
    });
  }, 90_000);
});
