// A CLI prints its answer, then saves its session and exits. The answer is delivered once it has exited, so the
// next turn can resume that session; a CLI that hangs after its answer is stopped shortly after it, and its
// answer still counts.
import { realpath } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createClaudeAgent } from '../../../src/adapters/claude/claude-agent.js';
import { createCodexAgent } from '../../../src/adapters/codex/codex-agent.js';
import type { AgentTurn } from '../../../src/core/types.js';
import { tempDir } from '../../unit/persistence/tmp-dir.js';
import { lifeOf, writeFakeCli, type FakeCliBehaviour } from './fake-cli.js';
import { collect } from '../../helpers/agent-events.js';

function turn(cwd: string): AgentTurn {
  return {
    prompt: 'Do it',
    cwd,
    access: 'workspace-write',
    meta: { role: 'planner', kind: 'execute_step', iteration: 1, step: 1 },
  };
}

async function setup(
  kind: 'codex' | 'claude',
  b: FakeCliBehaviour,
  timeouts: { idleTimeoutMs?: number; answerGraceMs?: number } = {},
) {
  const dir = await realpath(await tempDir());
  const binary = await writeFakeCli(dir, kind, b);
  const debug: string[] = [];
  const create = kind === 'codex' ? createCodexAgent : createClaudeAgent;
  const agent = create({
    name: kind,
    binary,
    debug: (_s, l) => debug.push(l),
    debugSource: `planner/${kind}`,
    ...timeouts,
  });
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

describe('the answer of a CLI turn', () => {
  it('codex: done is delivered after the CLI has exited by itself; the next turn starts after that', async () => {
    const { dir, binary, agent } = await setup('codex', { transcript: 'codex-readonly.exec.jsonl', lingerMs: 500 });
    const first = await collect(agent.start(turn(dir)));
    expect(first.at(-1)).toMatchObject({ type: 'done', text: 'Read-only run done.' });
    const [start1, exit1] = await lifeOf(binary);
    expect(exit1).toBe(`exit ${pidOf(start1)}`);

    const second = await collect(agent.resume('01a206ff-a484-7c31-8b44-6390e1afd548', turn(dir)));
    expect(second.at(-1)).toMatchObject({ type: 'done' });
    const [, , start2, exit2, ...rest] = await lifeOf(binary);
    expect(exit2).toBe(`exit ${pidOf(start2)}`);
    expect(rest).toEqual([]);
  });

  it('claude: a CLI that hangs after its answer is stopped shortly after it (long before the idle timeout), its answer delivered, nothing of it left', async () => {
    const result = JSON.stringify({
      type: 'result',
      subtype: 'success',
      is_error: false,
      session_id: 's-1',
      result: 'All done.',
    });
    // The idle timeout is far longer than the test may run: only the short grace after the answer can end it.
    const { dir, binary, agent, debug } = await setup(
      'claude',
      { stdout: [result], hang: true },
      { idleTimeoutMs: 60 * 60_000, answerGraceMs: 1_000 },
    );
    expect(await collect(agent.start(turn(dir)))).toEqual([{ type: 'done', sessionId: 's-1', text: 'All done.' }]);
    const [start, ...rest] = await lifeOf(binary);
    expect(rest).toEqual([]); // it never exited by itself
    expect(alive(pidOf(start))).toBe(false);
    expect(debug).toContain('agent-collab: claude was still running 1 s after its answer and was stopped');
  }, 20_000);
});
