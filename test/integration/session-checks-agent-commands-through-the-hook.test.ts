// A session's agents ask agent-collab before each shell command: the fake planner's scripted commands go through
// the real hook program to the session's hook server and on to the engine's policy. Before an engine exists every
// command is denied; the hook port is closed once the session closes, or when the session cannot open.
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runHook } from '../../src/adapters/command-hook/run-hook.js';
import type { EngineOutput } from '../../src/core/events.js';
import type { WorkflowState } from '../../src/core/types.js';
import { openSession } from '../../src/modes/session.js';
import { tempRepoWithFakeScript } from '../helpers/repo.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => cleanup?.());

async function until(cond: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function tcpServers(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
}

describe('session: agent commands through the command hook', () => {
  it('a blocked command of the planner does not run, an allowed one does; the engine reports the denial', async () => {
    const repo = tempRepoWithFakeScript({
      rules: [
        {
          when: { kind: 'execute_step' },
          do: { run: ['chmod -R 777 sub', 'echo ok > ok.txt'], writeFiles: {}, text: 'Summary: ran two commands' },
        },
      ],
    });
    mkdirSync(path.join(repo.dir, 'sub'), { mode: 0o755 });
    const session = await openSession({ cwd: repo.dir, homeDir: repo.home });
    const port = session.commandHooks.port;
    let engineClose = async (): Promise<void> => undefined;
    cleanup = async () => {
      await engineClose();
      await session.close();
      repo.cleanup();
    };

    const early = await runHook(session.commandHooks.endpoint('planner'), { command: 'ls', cwd: repo.dir });
    expect(early).toEqual({ allow: false, reason: expect.stringContaining('no run under way') });

    const base = session.newRun('g', 'manual');
    const state: WorkflowState = {
      ...base,
      phase: 'EXECUTE',
      steps: [{ n: 1, title: 'do it', done: false }],
      currentStep: 1,
      inflight: { kind: 'execute_step', step: 1 },
    };
    const engine = session.engineFor(state, { interactive: false });
    engineClose = () => engine.close();
    const outputs: EngineOutput[] = [];
    engine.subscribe((o) => outputs.push(o));
    await engine.resume();
    await until(
      () => session.commandHooks.checkedCommands.length === 3 && existsSync(path.join(repo.dir, 'ok.txt')),
    ).catch((e: unknown) => {
      throw new Error(
        `${String(e)}: ${JSON.stringify(session.commandHooks.checkedCommands)} ${JSON.stringify(outputs).slice(-3000)}`,
      );
    });

    expect(statSync(path.join(repo.dir, 'sub')).mode & 0o777).toBe(0o755);
    expect(session.commandHooks.checkedCommands.map((c) => [c.role, c.command, c.verdict.allow])).toEqual([
      ['planner', 'ls', false],
      ['planner', 'chmod -R 777 sub', false],
      ['planner', 'echo ok > ok.txt', true],
    ]);
    expect(outputs).toContainEqual({
      type: 'notice',
      notice: expect.objectContaining({
        kind: 'command',
        role: 'planner',
        command: 'chmod -R 777 sub',
        decision: 'deny',
        rule: 'chmod 777',
      }),
    });
    expect(outputs).toContainEqual({
      type: 'agent_event',
      role: 'planner',
      event: expect.objectContaining({
        type: 'command',
        command: 'chmod -R 777 sub',
        status: 'failed',
        output: expect.stringMatching(
          /^Command blocked by PreToolUse hook: agent-collab: blocked by the rule "chmod 777"/,
        ),
      }),
    });

    await engine.close();
    engineClose = async () => undefined;
    await session.close();
    const refused = await new Promise<string>((resolve) =>
      net
        .connect(port, '127.0.0.1')
        .on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? ''))
        .on('connect', () => resolve('connected')),
    );
    expect(refused).toBe('ECONNREFUSED');
  });

  it('outside a repository: the one-line error, and no hook server is left listening', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ac-norepo-'));
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
    const before = tcpServers();
    await expect(openSession({ cwd: dir, homeDir: dir })).rejects.toThrow(/is not inside a git repository/);
    await until(() => tcpServers() <= before, 2_000); // libuv lets go of a closed handle on its next turn
  });

  it('an agent that cannot be made after the hook server started: the one-line error, the hook server closed, the lock let go', async () => {
    const repo = tempRepoWithFakeScript({ rules: [] });
    cleanup = async () => repo.cleanup();
    rmSync(path.join(repo.home, 'script.json'));
    const before = tcpServers();
    await expect(openSession({ cwd: repo.dir, homeDir: repo.home })).rejects.toThrow(
      /^fake script .*script\.json not found$/,
    );
    await until(() => tcpServers() <= before, 2_000);
    expect(existsSync(path.join(repo.dir, '.agent-collab', 'agent-collab.lock'))).toBe(false);
  });
});
