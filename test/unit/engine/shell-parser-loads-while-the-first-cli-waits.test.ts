// The command policy's shell parser starts loading when a CLI reports its session (it then waits on its model), not
// on the first command check; a load that fails there leaves the round alone and the check that needs it denies.
import { describe, expect, it } from 'vitest';
import type { Agent, AgentEvent } from '../../../src/core/types.js';
import type { CommandPolicy } from '../../../src/engine/command-gate.js';
import { Engine } from '../../../src/engine/runner.js';
import { NO_GIT_WORKSPACE, quietFiles } from '../../helpers/quiet-ports.js';
import { OPTS, running } from '../../helpers/states.js';

/** A planner that reports its session, then works until `release` is called. */
function waitingPlanner(): { agent: Agent; release: () => void } {
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  async function* play(): AsyncGenerator<AgentEvent> {
    yield { type: 'session', sessionId: 's-1' };
    await held;
  }
  const agent: Agent = { name: 'planner', start: play, resume: play, stop: () => Promise.resolve(release()) };
  return { agent, release };
}

/** A policy whose parser load is counted and fails `failures` times before it works. */
function countingPolicy(failures: number): CommandPolicy & { loads: number } {
  let left = failures;
  const policy = {
    loads: 0,
    ready: () => {
      policy.loads += 1;
      return left-- > 0 ? Promise.reject(new Error('no grammar here')) : Promise.resolve();
    },
    evaluate: () => ({ decision: 'allow' as const, rule: null, reason: '' }),
    allowedByPrefix: () => false,
    interactive: false,
    allowPrefixes: [],
    confirmTimeoutMs: 1000,
  };
  return policy;
}

function planningWith(agent: Agent, commands: CommandPolicy): Engine {
  return new Engine(running('WRITE_PLAN', { kind: 'write_plan' }, { mode: 'auto' }), {
    repoRoot: '/nowhere',
    files: quietFiles(),
    workspace: NO_GIT_WORKSPACE,
    prompts: { render: (name: string) => Promise.resolve(`prompt ${name}`) },
    agents: { planner: agent, reviewer: { ...waitingPlanner().agent, name: 'reviewer' } },
    options: OPTS,
    commands,
  });
}

const until = async (ok: () => boolean): Promise<void> => {
  for (let i = 0; i < 1000 && !ok(); i++) await new Promise((r) => setImmediate(r));
};

describe('the shell parser of the command policy', () => {
  it('starts loading when the CLI reports its session, before any command is checked', async () => {
    const { agent, release } = waitingPlanner();
    const policy = countingPolicy(0);
    const engine = planningWith(agent, policy);
    await engine.resume();
    await until(() => engine.state.sessions.planner === 's-1');
    expect(policy.loads).toBe(1);
    release();
    await engine.close();
  });

  it('that fails to load early leaves the round running, and the first check loads it again', async () => {
    const { agent, release } = waitingPlanner();
    const policy = countingPolicy(1);
    const engine = planningWith(agent, policy);
    await engine.resume();
    await until(() => engine.state.sessions.planner === 's-1');
    expect(engine.state.inflight).toEqual({ kind: 'write_plan' });
    await expect(engine.checkCommand({ role: 'planner', command: 'ls', cwd: '/nowhere' })).resolves.toEqual({
      allow: true,
    });
    expect(policy.loads).toBe(2);
    release();
    await engine.close();
  });
});
