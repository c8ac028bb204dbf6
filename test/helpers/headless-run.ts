// A headless `--auto --auto-approve --json` run with injected agents, as the integration tests make it: its exit
// code and the NDJSON events it printed. `extra` overrides any option (goal, resume, decision, stdout, …).
import type { Agent } from '../../src/core/types.js';
import { runHeadless, type HeadlessOptions } from '../../src/modes/headless.js';
import { sink } from './repo.js';

export type RunEvent = Record<string, unknown>;

export async function runAutoHeadless(
  where: { dir: string; home: string },
  agents: { planner: Agent; reviewer: Agent },
  extra: Partial<HeadlessOptions> = {},
): Promise<{ code: number; events: RunEvent[] }> {
  const out = sink();
  const code = await runHeadless({
    cwd: where.dir,
    homeDir: where.home,
    auto: true,
    autoApprove: true,
    json: true,
    resume: 'ask',
    agents,
    stdout: out,
    stderr: sink(),
    ...extra,
  });
  return { code, events: out.lines() };
}
