// A CLI may leave behind a process in a session of its own (a tool's `setsid … &`) that holds its stdout and
// stderr open. The runner does not chase it, but it stops waiting for those pipes soon after the CLI has exited:
// the turn, and stopping it, must not wait for that process to end.
import { realpath } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createClaudeAgent } from '../../../src/adapters/claude/claude-agent.js';
import { runProcess } from '../../../src/adapters/process-runner.js';
import type { AgentEvent, AgentTurn } from '../../../src/core/types.js';
import { tempDir } from '../../unit/persistence/tmp-dir.js';
import { escapedPidOf, writeFakeCli, type FakeCliBehaviour } from './fake-cli.js';
import { collect } from '../../helpers/agent-events.js';
import { isAlive, nodeScript } from './process-helpers.js';

const escaped: number[] = [];
afterEach(() => {
  for (const pid of escaped.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

function turn(cwd: string): AgentTurn {
  return {
    prompt: 'Do it',
    cwd,
    access: 'workspace-write',
    meta: { role: 'planner', kind: 'execute_step', iteration: 1, step: 1 },
  };
}

async function claude(b: FakeCliBehaviour) {
  const dir = await realpath(await tempDir());
  const binary = await writeFakeCli(dir, 'claude', { ...b, escapedChild: true });
  const agent = createClaudeAgent({ name: 'claude', binary, debug: () => undefined, debugSource: 'planner/claude' });
  return { dir, binary, agent };
}

const RESULT = JSON.stringify({
  type: 'result',
  subtype: 'success',
  is_error: false,
  session_id: 's-1',
  result: 'All done.',
});

describe('output held open by an escaped process', () => {
  it('process runner: the output and the run end after the CLI exits, the escaped process still running', async () => {
    const code = `
      import { spawn } from 'node:child_process';
      const e = spawn('sleep', ['1000'], { detached: true, stdio: ['ignore', 'inherit', 'inherit'] });
      e.unref();
      process.stdout.write('escaped ' + e.pid + '\\nanswer\\n');
      process.exit(0);
    `;
    const proc = runProcess(nodeScript(code));
    const lines: string[] = [];
    for await (const line of proc.lines()) lines.push(line);
    const pid = Number(lines[0]?.split(' ')[1]);
    escaped.push(pid);
    expect(lines).toEqual([`escaped ${pid}`, 'answer']);
    expect(await proc.ended).toMatchObject({ kind: 'exited', exitCode: 0 });
    expect(isAlive(pid)).toBe(true); // in another session: not chased, only no longer waited for
  }, 15_000);

  it('claude: the answer of a CLI that exited is delivered although an escaped process holds its output', async () => {
    const { dir, binary, agent } = await claude({ stdout: [RESULT] });
    const events = await collect(agent.start(turn(dir)));
    escaped.push(await escapedPidOf(binary));
    expect(events).toEqual([{ type: 'done', sessionId: 's-1', text: 'All done.' }]);
  }, 15_000);

  it('claude: stop() of a hanging turn resolves although an escaped process holds its output', async () => {
    const { dir, binary, agent } = await claude({
      stdout: ['{"type":"system","subtype":"init","session_id":"s"}'],
      hang: true,
    });
    const seen: AgentEvent[] = [];
    let stopped: Promise<void> | null = null;
    for await (const ev of agent.start(turn(dir))) {
      seen.push(ev);
      if (ev.type === 'session') stopped = agent.stop();
    }
    escaped.push(await escapedPidOf(binary));
    await stopped;
    expect(seen).toEqual([{ type: 'session', sessionId: 's' }]);
  }, 15_000);
});
