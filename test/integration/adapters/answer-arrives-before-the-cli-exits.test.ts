// A CLI prints its answer, then takes a while to save its session and exit. The engine gets the answer at once;
// only the same agent's next turn waits for the exit (a resume reads the saved session), and stop() lets the
// answered CLI finish instead of killing it, unless it overstays.
import { realpath } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createClaudeAgent } from '../../../src/adapters/claude/claude-agent.js';
import { createCodexAgent } from '../../../src/adapters/codex/codex-agent.js';
import type { AgentTurn } from '../../../src/core/types.js';
import { tempDir } from '../../unit/persistence/tmp-dir.js';
import { lifeOf, writeFakeCli, type FakeCliBehaviour } from './fake-cli.js';
import { collect } from '../../helpers/agent-events.js';

function turn(cwd: string): AgentTurn {
  return { prompt: 'Do it', cwd, access: 'workspace-write', meta: { role: 'planner', kind: 'execute_step', iteration: 1, step: 1 } };
}

async function setup(kind: 'codex' | 'claude', b: FakeCliBehaviour, exitAfterAnswerMs?: number) {
  const dir = await realpath(await tempDir());
  const binary = await writeFakeCli(dir, kind, b);
  const debug: string[] = [];
  const create = kind === 'codex' ? createCodexAgent : createClaudeAgent;
  const agent = create({ name: kind, binary, debug: (_s, l) => debug.push(l), debugSource: `planner/${kind}`, exitAfterAnswerMs });
  return { dir, binary, agent, debug };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const pidOf = (lifeLine: string | undefined): number => Number(lifeLine?.split(' ')[1]);

describe('the answer arrives before the CLI exits', () => {
  it('codex: done is delivered while the CLI is still exiting; the next turn starts after it has exited', async () => {
    const { dir, binary, agent } = await setup('codex', { transcript: 'codex-readonly.exec.jsonl', lingerMs: 2_000 });
    const first = await collect(agent.start(turn(dir)));
    expect(first.at(-1)).toMatchObject({ type: 'done', text: 'Read-only run done.' });
    const afterAnswer = await lifeOf(binary);
    expect(afterAnswer.map((l) => l.split(' ')[0])).toEqual(['start']); // still running: its exit is 2 s away
    expect(alive(pidOf(afterAnswer[0]))).toBe(true);

    const second = await collect(agent.resume('01a206ff-a484-7c31-8b44-6390e1afd548', turn(dir)));
    expect(second.at(-1)).toMatchObject({ type: 'done' });
    const [start1, exit1, start2, ...rest] = await lifeOf(binary);
    expect([start1, exit1, start2].map((l) => l?.split(' ')[0])).toEqual(['start', 'exit', 'start']);
    expect(exit1).toBe(`exit ${pidOf(start1)}`); // the first exited by itself before the second began
    expect(rest).toEqual([]);

    await agent.stop(); // waits for the answered CLI to exit by itself
    expect(await lifeOf(binary)).toEqual([start1, exit1, start2, `exit ${pidOf(start2)}`]);
  });

  it('claude: an answered CLI that does not exit is stopped after the allowed time, and nothing of it is left', async () => {
    const result = JSON.stringify({ type: 'result', subtype: 'success', is_error: false, session_id: 's-1', result: 'All done.' });
    const { dir, binary, agent, debug } = await setup('claude', { stdout: [result], hang: true }, 300);
    expect(await collect(agent.start(turn(dir)))).toEqual([{ type: 'done', sessionId: 's-1', text: 'All done.' }]);
    const [start] = await lifeOf(binary);
    expect(alive(pidOf(start))).toBe(true);

    await agent.stop();
    expect(alive(pidOf(start))).toBe(false);
    expect(await lifeOf(binary)).toEqual([start]); // it never exited by itself
    expect(debug).toContain('agent-collab: claude was still running 300 ms after its answer; stopping it');
  });
});
