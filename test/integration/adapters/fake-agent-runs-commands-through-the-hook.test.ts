// The fake agent's scripted `run` commands go through the real hook program and the real policy: a blocked
// command does not run, an allowed one does, a held one waits for the answer; without a hook nothing runs.
import { mkdirSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startCommandHookServer, type CommandHookServer } from '../../../src/adapters/command-hook/server.js';
import { FakeAgent } from '../../../src/adapters/fake/fake-agent.js';
import { fakeScriptSchema, loadFakeScript } from '../../../src/adapters/fake/script.js';
import type { AgentTurn } from '../../../src/core/types.js';
import { tempDir } from '../../unit/persistence/tmp-dir.js';
import { defaultPolicyGate } from './policy-gate.js';
import { collect } from '../../helpers/agent-events.js';

const servers: CommandHookServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function turn(cwd: string): AgentTurn {
  return {
    prompt: 'Do step 1',
    cwd,
    access: 'workspace-write',
    meta: { role: 'planner', kind: 'execute_step', iteration: 0, step: 1 },
  };
}

async function repo(): Promise<string> {
  const dir = await realpath(await tempDir());
  mkdirSync(path.join(dir, 'sub'), { mode: 0o755 });
  return dir;
}

describe('fake agent: scripted shell commands through the hook', () => {
  it('blocked chmod -R 777 does not run (mode unchanged, the event carries the denial); an allowed command runs', async () => {
    const dir = await repo();
    const policy = await defaultPolicyGate();
    const server = await startCommandHookServer({ gate: policy.gate, confirmTimeoutSeconds: 5 });
    servers.push(server);
    const agent = new FakeAgent(
      'fake',
      { rules: [{ do: { run: ['chmod -R 777 sub', 'echo hi > made.txt'], text: 'Summary: x' } }] },
      { hook: server.endpoint('planner') },
    );
    const events = await collect(agent.start(turn(dir)));
    expect(statSync(path.join(dir, 'sub')).mode & 0o777).toBe(0o755);
    expect(readFileSync(path.join(dir, 'made.txt'), 'utf8')).toBe('hi\n');
    const commands = events.filter((e) => e.type === 'command');
    expect(commands[0]).toMatchObject({ command: 'chmod -R 777 sub', status: 'failed', exitCode: null });
    expect((commands[0] as { output: string }).output).toMatch(
      /^Command blocked by PreToolUse hook: agent-collab: blocked by agent-collab's command policy \(rule "chmod 777"/,
    );
    expect(commands.slice(1)).toMatchObject([
      { command: 'echo hi > made.txt', status: 'started' },
      { command: 'echo hi > made.txt', status: 'completed', exitCode: 0 },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'done' });
    expect(server.checkedCommands.map((c) => [c.command, c.verdict.allow])).toEqual([
      ['chmod -R 777 sub', false],
      ['echo hi > made.txt', true],
    ]);
  });

  it('git push is held until answered: deny → not run, allow → runs', async () => {
    const dir = await repo();
    const policy = await defaultPolicyGate();
    const server = await startCommandHookServer({ gate: policy.gate, confirmTimeoutSeconds: 5 });
    servers.push(server);
    // no remote: the push itself fails; the marker shows whether the command ran at all
    const push = 'git push origin main 2>/dev/null; touch pushed';
    const agent = new FakeAgent('fake', { rules: [{ do: { run: push } }] }, { hook: server.endpoint('planner') });
    const first = collect(agent.start(turn(dir)));
    while (policy.held.length === 0) await new Promise((r) => setTimeout(r, 20));
    expect(policy.held[0]!.check).toEqual({ role: 'planner', command: push, cwd: dir });
    policy.held.shift()!.answer({ allow: false, reason: 'the person said no' });
    const denied = await first;
    expect(existsSync(path.join(dir, 'pushed'))).toBe(false);
    expect(denied.find((e) => e.type === 'command')).toMatchObject({
      status: 'failed',
      output: expect.stringContaining('the person said no'),
    });

    const second = collect(agent.start(turn(dir)));
    while (policy.held.length === 0) await new Promise((r) => setTimeout(r, 20));
    policy.held.shift()!.answer({ allow: true });
    await second;
    expect(existsSync(path.join(dir, 'pushed'))).toBe(true);
  });

  it('without a hook, a scripted command does not run', async () => {
    const dir = await repo();
    const agent = new FakeAgent('fake', { rules: [{ do: { run: 'touch ran' } }] });
    const events = await collect(agent.start(turn(dir)));
    expect(existsSync(path.join(dir, 'ran'))).toBe(false);
    expect(events.find((e) => e.type === 'command')).toMatchObject({
      status: 'failed',
      output: expect.stringMatching(/no command hook/),
    });
  });

  it('a hook whose server is gone: the command does not run', async () => {
    const dir = await repo();
    const policy = await defaultPolicyGate();
    const server = await startCommandHookServer({ gate: policy.gate, confirmTimeoutSeconds: 5 });
    const agent = new FakeAgent(
      'fake',
      { rules: [{ do: { run: 'touch ran' } }] },
      { hook: server.endpoint('planner') },
    );
    await server.close();
    const events = await collect(agent.start(turn(dir)));
    expect(existsSync(path.join(dir, 'ran'))).toBe(false);
    expect(events.find((e) => e.type === 'command')).toMatchObject({
      status: 'failed',
      output: expect.stringMatching(/cannot reach agent-collab/),
    });
  });

  it('the JSON script schema accepts run as a string or a list, and rejects an empty command', async () => {
    expect(fakeScriptSchema.safeParse({ rules: [{ do: { run: 'ls' } }] }).success).toBe(true);
    expect(fakeScriptSchema.safeParse({ rules: [{ do: { run: ['ls', 'pwd'] } }] }).success).toBe(true);
    const dir = await tempDir();
    const file = path.join(dir, 'script.json');
    writeFileSync(file, JSON.stringify({ rules: [{ do: { run: [''] } }] }));
    await expect(loadFakeScript(file)).rejects.toThrow(/invalid at rules\.0\.do\.run/);
  });
});
