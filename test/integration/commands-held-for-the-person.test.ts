// The engine's command gate with a person present (the TUI's engine): confirm-required commands wait for the
// person (allow once / deny / allow for the run), blocked ones default to deny, nobody answering denies, too
// many denials stop the step. Without a person: blocked denied, confirm denied unless --allow-cmd covers it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeAgent } from '../../src/adapters/fake/fake-agent.js';
import type { EngineOutput } from '../../src/core/events.js';
import type { Engine } from '../../src/engine/runner.js';
import type { WorkflowState } from '../../src/core/types.js';
import { openSession, type Session } from '../../src/modes/session.js';
import { tempRepo } from '../helpers/repo.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await cleanup?.();
});

/** An engine in EXECUTE with step 1's round under way (the fake planner hangs, like an agent between commands). */
async function executing(run: { interactive: boolean; allowCmd?: string[] }, config = '') {
  const repo = tempRepo(config);
  const planner = new FakeAgent('planner', { rules: [{ when: { kind: 'execute_step' }, do: { hang: true } }] });
  const reviewer = new FakeAgent('reviewer', { rules: [] });
  const session: Session = await openSession({ cwd: repo.dir, homeDir: repo.home, agents: { planner, reviewer } });
  const base = session.newRun('g', 'manual');
  const state: WorkflowState = {
    ...base,
    phase: 'EXECUTE',
    steps: [{ n: 1, title: 'do it', done: false }],
    currentStep: 1,
    inflight: { kind: 'execute_step', step: 1 },
  };
  const engine: Engine = session.engineFor(state, run);
  const outputs: EngineOutput[] = [];
  engine.subscribe((o) => outputs.push(o));
  await engine.resume();
  // wait until the step run exists (the snapshot was taken and the round started)
  for (let i = 0; i < 200 && !engine.state.stepRun; i++) await new Promise((r) => setTimeout(r, 10));
  cleanup = async () => {
    await engine.close();
    await session.close();
    repo.cleanup();
  };
  return { engine, outputs, repo };
}

async function until<T>(get: () => T | null | undefined): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const v = get();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('timed out waiting');
}

const check = (command: string) => ({ role: 'planner' as const, command, cwd: '/' });

describe('commands held for the person', () => {
  it('a command that needs confirmation waits; allow once lets it run and is not remembered', async () => {
    const { engine } = await executing({ interactive: true });
    const verdict = engine.checkCommand(check('git push origin main'));
    const held = await until(() => engine.state.pendingCommand);
    expect(held).toMatchObject({
      command: 'git push origin main',
      decision: 'confirm',
      rule: 'git push',
      role: 'planner',
    });
    await engine.dispatch({ type: 'decide', on: 'command', id: held.id, choice: 'allow-once' });
    expect(await verdict).toEqual({ allow: true });
    expect(engine.state.pendingCommand).toBeNull();
    expect(engine.state.allowedCommands).toEqual([]);
  });

  it('allow for the rest of the run: the same command later passes without asking', async () => {
    const { engine } = await executing({ interactive: true });
    const first = engine.checkCommand(check('npm publish'));
    const held = await until(() => engine.state.pendingCommand);
    await engine.dispatch({ type: 'decide', on: 'command', id: held.id, choice: 'allow-run' });
    expect(await first).toEqual({ allow: true });
    expect(await engine.checkCommand(check('npm publish'))).toEqual({ allow: true });
    expect(engine.state.pendingCommand).toBeNull();
  });

  it('a blocked command is held with deny as the default; the agent is told why; denials count', async () => {
    const { engine } = await executing({ interactive: true });
    const verdict = engine.checkCommand(check('chmod -R 777 src'));
    const held = await until(() => engine.state.pendingCommand);
    expect(held).toMatchObject({ decision: 'block', rule: 'chmod 777' });
    await engine.dispatch({ type: 'decide', on: 'command', id: held.id, choice: 'deny' });
    const v = await verdict;
    expect(v.allow).toBe(false);
    expect(v.allow ? '' : v.reason).toMatch(/do not try variants/);
    expect(engine.state.stepRun?.denials).toBe(1);
  });

  it('commands asked at the same time are held one after the other', async () => {
    const { engine } = await executing({ interactive: true });
    const a = engine.checkCommand(check('git push'));
    const b = engine.checkCommand(check('npm publish'));
    const first = await until(() => engine.state.pendingCommand);
    expect(first.command).toBe('git push');
    await engine.dispatch({ type: 'decide', on: 'command', id: first.id, choice: 'allow-once' });
    const second = await until(() =>
      engine.state.pendingCommand?.id !== first.id ? engine.state.pendingCommand : null,
    );
    expect(second.command).toBe('npm publish');
    await engine.dispatch({ type: 'decide', on: 'command', id: second.id, choice: 'deny' });
    expect((await a).allow).toBe(true);
    expect((await b).allow).toBe(false);
  });

  it('nobody answering within confirm_timeout_seconds denies', async () => {
    const { engine } = await executing({ interactive: true }, '[safety]\nconfirm_timeout_seconds = 600\n');
    // A fake clock that still moves with real time: the timeout passes when the test moves the clock past it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    let answered = false;
    const verdict = engine.checkCommand(check('git push')).finally(() => (answered = true));
    await until(() => engine.state.pendingCommand);
    expect(answered).toBe(false); // held for the person until the timeout
    vi.advanceTimersByTime(600_000);
    const v = await verdict;
    expect(v.allow).toBe(false);
    expect(v.allow ? '' : v.reason).toMatch(/nobody answered within 600 s/);
    await until(() => (engine.state.pendingCommand === null ? true : null));
  });

  it('max_denials_per_step denials stop the step and ask the person', async () => {
    const { engine } = await executing({ interactive: false }, '[safety]\nmax_denials_per_step = 2\n');
    expect((await engine.checkCommand(check('sudo ls'))).allow).toBe(false);
    expect(engine.state.inflight).not.toBeNull();
    expect((await engine.checkCommand(check('rm -rf build'))).allow).toBe(false);
    await until(() => (engine.state.awaiting?.kind === 'step_failed' ? true : null));
    expect(engine.state.awaiting).toMatchObject({ kind: 'step_failed', category: 'policy_block' });
    expect(engine.state.inflight).toBeNull();
  });

  it('stopping the run denies a held command at once', async () => {
    const { engine } = await executing({ interactive: true });
    const verdict = engine.checkCommand(check('git push'));
    await until(() => engine.state.pendingCommand);
    await engine.dispatch({ type: 'stop' });
    expect((await verdict).allow).toBe(false);
    expect(engine.state.pendingCommand).toBeNull();
  });
});

describe('commands without a person (headless)', () => {
  it('blocked is always denied, even with a matching --allow-cmd', async () => {
    const { engine, outputs } = await executing({ interactive: false, allowCmd: ['sudo'] });
    const v = await engine.checkCommand(check('sudo ls /root'));
    expect(v.allow).toBe(false);
    const notice = outputs.find((o) => o.type === 'notice' && o.notice.kind === 'command');
    expect(notice).toMatchObject({ notice: { decision: 'deny', rule: 'sudo' } });
  });

  it('confirm is denied unless --allow-cmd covers it', async () => {
    const { engine } = await executing({ interactive: false, allowCmd: ['git push origin'] });
    expect((await engine.checkCommand(check('git push origin main'))).allow).toBe(true);
    const other = await engine.checkCommand(check('git push upstream main'));
    expect(other.allow).toBe(false);
    expect(other.allow ? '' : other.reason).toMatch(/--allow-cmd/);
    // A force push is blocked: no --allow-cmd prefix covers it, not even one it starts with.
    const forced = await engine.checkCommand(check('git push origin main --force'));
    expect(forced.allow).toBe(false);
    expect(forced.allow ? '' : forced.reason).toMatch(/built-in rule "force push"/);
    expect((await engine.checkCommand(check('git status'))).allow).toBe(true);
  });
});
