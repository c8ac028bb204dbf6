// One full workflow through the real Engine (openSession → engineFor), in auto mode with auto-approve,
// on instant fake agents, in a fresh temp git repo. Records when each phase was entered and when each
// agent turn was launched.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { FakeAgent } from '../src/adapters/fake/fake-agent.js';
import type { FakeScript } from '../src/adapters/fake/script.js';
import type { Phase, TurnKind } from '../src/core/types.js';
import { openSession } from '../src/modes/session.js';
import { instrumentFiles, type FileOp } from './file-ops.js';
import { makeBenchRepo } from './repo.js';
import { BENCH_GOAL, plannerScript, reviewerScript } from './scripts.js';
import { TimedAgent, type TurnLaunch } from './timed-agent.js';

export const REVIEW_KINDS: ReadonlySet<TurnKind> = new Set(['write_plan', 'review', 'respond']);

export interface WorkflowConfig {
  /** The review iteration at which the reviewer approves (K). */
  approveAt: number;
  steps: number;
  timeoutMs?: number;
}

export interface WorkflowRun {
  scripts: { planner: FakeScript; reviewer: FakeScript };
  launches: TurnLaunch[];
  /** First time each phase was entered (the engine's `phase` output). */
  phaseAt: Map<Phase, number>;
  fileOps: FileOp[];
}

export async function runWorkflowOnce(cfg: WorkflowConfig): Promise<WorkflowRun> {
  const repo = await makeBenchRepo();
  // An empty home, so no user-level config.toml changes what is measured.
  const home = await mkdtemp(path.join(os.tmpdir(), 'agent-collab-bench-home-'));
  const savedXdg = process.env.XDG_CONFIG_HOME;
  process.env.XDG_CONFIG_HOME = path.join(home, '.config');
  const scripts = { planner: plannerScript(cfg.steps), reviewer: reviewerScript(cfg.approveAt) };
  const launches: TurnLaunch[] = [];
  const agents = {
    planner: new TimedAgent(new FakeAgent('fake-planner', scripts.planner, { sessionPrefix: 'fake-planner' }), launches),
    reviewer: new TimedAgent(new FakeAgent('fake-reviewer', scripts.reviewer, { sessionPrefix: 'fake-reviewer' }), launches),
  };
  try {
    const session = await openSession({
      cwd: repo.dir,
      homeDir: home,
      agents,
      overrides: { workflow: { max_iterations: 100, auto_approve: true } },
    });
    try {
      if (session.saved.kind !== 'none') throw new Error('the bench repo unexpectedly has a saved run');
      const fileOps = instrumentFiles(session.files);
      const engine = session.engineFor(session.newRun(BENCH_GOAL, 'auto'));
      const phaseAt = new Map<Phase, number>();
      let timer: NodeJS.Timeout | undefined;
      const finished = new Promise<void>((resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`the workflow did not finish within ${cfg.timeoutMs ?? 30_000} ms`)), cfg.timeoutMs ?? 30_000);
        engine.subscribe((out) => {
          switch (out.type) {
            case 'phase':
              if (!phaseAt.has(out.to)) phaseAt.set(out.to, performance.now());
              return;
            case 'awaiting':
              if (out.awaiting.kind === 'goal') void engine.dispatch({ type: 'goal_ready', goal: BENCH_GOAL });
              else reject(new Error(`the workflow stopped for the person (${out.awaiting.kind} in ${out.phase})`));
              return;
            case 'rejected':
              reject(new Error(`the engine rejected "${out.event}": ${out.message}`));
              return;
            case 'error':
              reject(new Error(`engine error: ${out.message}`));
              return;
            case 'finished':
              if (out.phase === 'DONE') resolve();
              else reject(new Error(`the run ended in ${out.phase}`));
              return;
            default:
              return;
          }
        });
      });
      try {
        await engine.dispatch({ type: 'start', goal: BENCH_GOAL });
        await finished;
      } finally {
        clearTimeout(timer);
        await engine.close();
      }
      return { scripts, launches, phaseAt, fileOps };
    } finally {
      await session.close();
    }
  } finally {
    if (savedXdg === undefined) delete process.env.XDG_CONFIG_HOME;
    else process.env.XDG_CONFIG_HOME = savedXdg;
    await repo.cleanup();
    await rm(home, { recursive: true, force: true });
  }
}
