// `agent-collab demo`: the whole workflow in a throwaway git repo, on scripted fake agents (no API keys).
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { makeScratchRepo } from './scratch-repo.js';
import { FakeAgent } from '../adapters/fake/fake-agent.js';
import { DEMO_SCRIPT } from '../adapters/fake/script.js';
import type { Agent, AgentEvent, Role } from '../core/types.js';
import { runHeadless } from './headless.js';

export const DEMO_GOAL = 'Add a greeting module with a unit test';

async function makeDemoRepo(): Promise<string> {
  const dir = await makeScratchRepo('demo');
  await mkdir(path.join(dir, '.agent-collab'), { recursive: true });
  await writeFile(path.join(dir, '.agent-collab', 'config.toml'), '[roles]\nplanner = "fake"\nreviewer = "fake"\n');
  return dir;
}

/** Slows a fake agent down so the TUI demo can be watched (the fake answers instantly). */
function paced(agent: Agent, ms: number): Agent {
  const slow = async function* (events: AsyncIterable<AgentEvent>): AsyncGenerator<AgentEvent> {
    for await (const ev of events) {
      await new Promise((r) => setTimeout(r, ms));
      yield ev;
    }
  };
  return {
    name: agent.name,
    start: (turn) => slow(agent.start(turn)),
    resume: (id, turn) => slow(agent.resume(id, turn)),
    stop: () => agent.stop(),
  };
}

function demoAgents(ms: number): Record<Role, Agent> {
  const agent = (role: Role): Agent =>
    paced(new FakeAgent(`fake-${role}`, DEMO_SCRIPT, { sessionPrefix: `fake-${role}` }), ms);
  return { planner: agent('planner'), reviewer: agent('reviewer') };
}

export async function runDemo(opts: { json: boolean; keep: boolean; tui?: boolean }): Promise<number> {
  const tui = opts.tui ?? (!opts.json && Boolean(process.stdout.isTTY && process.stdin.isTTY));
  if (tui) return runTuiDemo(opts.keep);
  const dir = await makeDemoRepo();
  const say = (text: string): void => {
    (opts.json ? process.stderr : process.stdout).write(`${text}\n`);
  };
  say(`Demo repo: ${dir} (fake planner and reviewer, auto mode)`);
  try {
    const code = await runHeadless({
      cwd: dir,
      goal: DEMO_GOAL,
      auto: true,
      autoApprove: true,
      json: opts.json,
      resume: 'fresh',
      handleSignals: true,
    });
    const log = await execa('git', ['log', '--oneline'], { cwd: dir, stdin: 'ignore', reject: false });
    say(`\ngit log --oneline:\n${String(log.stdout)}`);
    return code;
  } finally {
    if (opts.keep) say(`Kept the demo repo at ${dir}`);
    else await rm(dir, { recursive: true, force: true });
  }
}

/** The demo in the TUI: auto mode with the goal confirmed; P pauses, Enter steps, q leaves at the end. */
async function runTuiDemo(keep: boolean): Promise<number> {
  const dir = await makeDemoRepo();
  try {
    const { runInteractive } = await import('./interactive-start.js');
    const code = await runInteractive({
      cwd: dir,
      goal: DEMO_GOAL,
      mode: 'auto',
      agents: demoAgents(300),
      overrides: { workflow: { auto_approve: true } },
    });
    const log = await execa('git', ['log', '--oneline'], { cwd: dir, stdin: 'ignore', reject: false });
    process.stdout.write(`Demo repo: ${dir}\ngit log --oneline:\n${String(log.stdout)}\n`);
    return code;
  } finally {
    if (keep) process.stdout.write(`Kept the demo repo at ${dir}\n`);
    else await rm(dir, { recursive: true, force: true });
  }
}
